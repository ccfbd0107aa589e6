import { normalizeUnicode } from './text-variants.js';

/** Assignments considered per command (bounded, so a hostile argument stays linear). */
const MAX_ASSIGNMENTS = 256;
/** `NAME=value` at the start of a word, also after `export`, `local`, `readonly`, `declare -x`. */
const ASSIGNMENT = /(?<=^|[\s;&|(){}])([A-Za-z_][A-Za-z0-9_]*)=((?:\$\{[^}\s]{0,256}\}|[^\s;&|(){}<>])*)/g;

/**
 * The command as a shell would run it after its own assignments: `A=.aws; cat ~/$A/credentials` becomes
 * `A=.aws; cat ~/.aws/credentials`, and `a=rm; $a -rf ~` becomes `a=rm; rm -rf ~`, so the guard's rules see the
 * path or command that was spelled through a variable. A variable assigned more than once (or from something the
 * guard cannot know) is left as written: the unresolved-expansion rules deal with it. Quotes stay (the guard's
 * rules remove them), so a quoted value keeps its quotes where it is substituted.
 */
export function substituteAssignments(command: string): string {
  const text = normalizeUnicode(command);
  const values = new Map<string, string | undefined>();
  let count = 0;
  for (const match of text.matchAll(ASSIGNMENT)) {
    if (count++ >= MAX_ASSIGNMENTS) break;
    const name = match[1] as string;
    values.set(name, values.has(name) ? undefined : (match[2] ?? ''));
  }
  if (values.size === 0) return command;
  let current = text;
  // Values may refer to earlier variables (B=$A/x): a few rounds resolve chains without looping on cycles.
  for (let round = 0; round < 4; round += 1) {
    const next = current.replace(
      /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
      (whole, braced: string | undefined, bare: string | undefined) => {
        const value = values.get((braced ?? bare) as string);
        return value === undefined || value.includes(whole) ? whole : value;
      },
    );
    if (next === current) break;
    current = next;
  }
  return current;
}
