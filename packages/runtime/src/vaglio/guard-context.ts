/** What the guard needs to know about where an action runs. */
export interface GuardContext {
  /** The user's home folder, for `~`, `$HOME` and home-relative rules. */
  home: string;
  /** The user's login name, for `$USER` and `~name`. */
  user: string;
  /** Working directory relative paths resolve against (the action's `cwd` argument when it has one). */
  cwd: string;
  /** Remaining `realpath` calls for this action (symlink resolution is bounded on huge arguments). */
  realpathBudget: { remaining: number };
}

/** Symlink lookups allowed per judged action. */
export const REALPATH_BUDGET = 512;

/**
 * Expands what a shell would expand before touching a path: `$HOME`, `${HOME…}`, `$USER`, `$LOGNAME`, and `~`,
 * `~root`, `~name` at the start of a word.
 */
export function expandHome(text: string, context: Pick<GuardContext, 'home' | 'user'>): string {
  return text
    .replace(/\$\{HOME[^}]*\}|\$HOME(?![A-Za-z0-9_])/g, context.home)
    .replace(/\$\{(?:USER|LOGNAME)[^}]*\}|\$(?:USER|LOGNAME)(?![A-Za-z0-9_])/g, context.user)
    .replace(
      /(^|[\s=:;|&<>(){}`,'"])~([a-z_][a-z0-9_.-]*)?(?=$|[/\s;|&<>(){}`,'"])/gi,
      (_match, before: string, name?: string) => {
        if (name === undefined || name === context.user) return `${before}${context.home}`;
        return `${before}${name.toLowerCase() === 'root' ? '/root' : `/home/${name}`}`;
      },
    );
}
