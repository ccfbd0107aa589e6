import { argumentStrings } from './argument-strings.js';
import { DESTRUCTIVE_RULE_LABELS, findDestructiveCommand } from './destructive-commands.js';
import { expandHome, type GuardContext, REALPATH_BUDGET } from './guard-context.js';
import { findSensitivePath } from './path-guard.js';
import { resolvePosixPath } from './posix-path.js';
import { substituteAssignments } from './shell-assignments.js';
import { EXPANSION_RULES, findUnresolvedExpansion } from './unresolved-expansions.js';
import type { VaglioAction } from './vaglio-action.js';

/** Capability that turns on the destructive-command rules. */
export const CODE_EXEC_CAPABILITY = 'code:exec';

/** Why the guard stopped an action. `detail` (the matched text) is for tests and debugging: never log it. */
export interface GuardFinding {
  kind: 'sensitive-path' | 'destructive-command' | 'unresolved-expansion';
  rule: string;
  /** The rule's constant label. */
  label: string;
  /** Key path of the argument that triggered it. */
  argument: string;
  detail: string;
}

/** Where the guard runs: the user's home and login name, and the default working directory. */
export interface GuardEnvironment {
  home: string;
  user: string;
  cwd: string;
}

/**
 * The guard (deontology): denies an action when any string of its arguments, at any depth, mentions a protected
 * path, or, for `code:exec` executors, holds a destructive command (also once the command's own variable
 * assignments are substituted) or builds a command or path at run time that the guard cannot resolve. An argument
 * named `cwd` (top level) is where relative paths of the action resolve. The rules do not relax with any setting.
 */
export function runGuard(action: VaglioAction, environment: GuardEnvironment): GuardFinding | undefined {
  const actionCwd = resolvePosixPath(environment.cwd, action.cwd ?? '.');
  const cwdArgument = (action.args as { cwd?: unknown } | null)?.cwd;
  const explicitBases =
    typeof cwdArgument === 'string' && cwdArgument !== ''
      ? [resolvePosixPath(actionCwd, expandHome(cwdArgument, environment))]
      : [];
  const context: GuardContext = {
    home: environment.home,
    user: environment.user,
    cwd: explicitBases[0] ?? actionCwd,
    realpathBudget: { remaining: REALPATH_BUDGET },
  };
  const executes = action.capabilities?.includes(CODE_EXEC_CAPABILITY) ?? false;
  for (const { key, value } of argumentStrings(action.args)) {
    // For code:exec, also the text as the shell would run it after its own assignments (A=.ssh; cat ~/$A/x).
    const resolved = executes ? substituteAssignments(value) : value;
    const spellings = resolved === value ? [value] : [value, resolved];
    for (const spelling of executes ? spellings : []) {
      const destructive = findDestructiveCommand(spelling, context);
      if (destructive) {
        return {
          kind: 'destructive-command',
          rule: destructive.rule,
          label: DESTRUCTIVE_RULE_LABELS[destructive.rule],
          argument: key,
          detail: destructive.detail,
        };
      }
    }
    for (const spelling of spellings) {
      const sensitive = findSensitivePath(spelling, context, explicitBases);
      if (sensitive) {
        return {
          kind: 'sensitive-path',
          rule: sensitive.rule.id,
          label: sensitive.rule.label,
          argument: key,
          detail: sensitive.path,
        };
      }
    }
    const expansion = executes ? findUnresolvedExpansion(resolved, context) : undefined;
    if (expansion) {
      return {
        kind: 'unresolved-expansion',
        rule: expansion.rule,
        label: EXPANSION_RULES[expansion.rule].label,
        argument: key,
        detail: expansion.detail,
      };
    }
  }
  return undefined;
}
