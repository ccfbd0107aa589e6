import { ScratchpadError } from '../core/errors.js';
import { tomlKeyLine } from './toml-key-line.js';

/** Reads typed values out of one table of `config.toml`, each mistake a `CONFIG_INVALID` naming file and line. */
export interface SectionReader {
  /** The table's own keys (empty when the table is absent). */
  readonly table: Readonly<Record<string, unknown>>;
  /** The error for `key` (or the table itself): `path:line: message`, with `hint`. */
  problem(key: string | undefined, message: string, hint: string): ScratchpadError;
  boolean(key: string): boolean | undefined;
  /** A whole number of at least `minimum` (default 1). */
  integer(key: string, minimum?: number): number | undefined;
  /** One of `choices`. */
  choice<Choice extends string>(key: string, choices: readonly Choice[]): Choice | undefined;
  /** A list of non-empty strings, each checked by `accept` when given; `what` names the items in the error. */
  stringList(
    key: string,
    what: string,
    example: string,
    accept?: (item: string) => boolean,
  ): string[] | undefined;
}

/**
 * A reader for the table at `keyPath` (`['runtime', 'hybrid']`) of the parsed `value`, rejecting keys outside
 * `knownKeys` so a typo is an error rather than a silently ignored setting.
 */
export function readSection(
  value: unknown,
  keyPath: readonly string[],
  knownKeys: readonly string[],
  source: { text: string; path: string },
): SectionReader {
  const name = keyPath.join('.');
  const problem = (key: string | undefined, message: string, hint: string): ScratchpadError => {
    const at = key === undefined ? [...keyPath] : [...keyPath, key];
    const line = tomlKeyLine(source.text, at);
    return new ScratchpadError('CONFIG_INVALID', `${source.path}${line ? `:${line}` : ''}: ${message}`, {
      hint,
      details: { path: source.path, line, key: at.join('.') },
    });
  };
  let table: Record<string, unknown> = {};
  if (value !== undefined) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date)
      throw problem(undefined, `${name} must be a table`, `Write it as a section: [${name}].`);
    table = value as Record<string, unknown>;
  }
  for (const key of Object.keys(table)) {
    if (!knownKeys.includes(key))
      throw problem(key, `unknown key ${key} in [${name}]`, `Known keys: ${knownKeys.join(', ')}.`);
  }
  return {
    table,
    problem,
    boolean(key) {
      const item = table[key];
      if (item === undefined || typeof item === 'boolean') return item;
      throw problem(key, `${key} must be true or false`, `Write ${key} = true (no quotes).`);
    },
    integer(key, minimum = 1) {
      const item = table[key];
      if (item === undefined) return undefined;
      if (typeof item === 'number' && Number.isSafeInteger(item) && item >= minimum) return item;
      throw problem(
        key,
        `${key} must be a whole number, ${minimum} or more`,
        `Write ${key} = ${Math.max(minimum, 1) * 10} (no quotes).`,
      );
    },
    choice(key, choices) {
      const item = table[key];
      if (item === undefined) return undefined;
      if (typeof item === 'string' && (choices as readonly string[]).includes(item))
        return item as (typeof choices)[number];
      throw problem(
        key,
        `${key} must be one of ${choices.map((choice) => `"${choice}"`).join(', ')}`,
        `Write ${key} = "${choices[0]}".`,
      );
    },
    stringList(key, what, example, accept) {
      const item = table[key];
      if (item === undefined) return undefined;
      if (
        Array.isArray(item) &&
        item.every((entry) => typeof entry === 'string' && entry !== '' && (accept?.(entry) ?? true))
      )
        return [...(item as string[])];
      throw problem(key, `${key} must be a list of ${what}`, `Write ${example}.`);
    },
  };
}
