import { ScratchpadError } from '../../core/errors.js';

/** The schema the tables live in unless configured otherwise. */
export const DEFAULT_SCHEMA = 'scratchpad';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * The quoted identifier of a schema name. Only plain identifiers are accepted: the name is interpolated into
 * SQL (identifiers cannot be parameters), so anything else is refused rather than escaped.
 */
export function quoteSchema(schema: string): string {
  if (!IDENTIFIER.test(schema)) {
    throw new ScratchpadError('CONFIG_INVALID', `Invalid PostgreSQL schema name ${JSON.stringify(schema)}.`, {
      hint: 'Use 1-63 letters, digits and underscores, not starting with a digit (the default is "scratchpad").',
      details: { schema },
    });
  }
  return `"${schema}"`;
}

/**
 * Characters PostgreSQL's text-search parser keeps inside one token (`app.log`, `scheduler/worker`, `~/dir`,
 * `-12`, a whole `<div class="error">` tag). Indexed as word breaks, so the words inside are found, as the
 * scan search finds them.
 */
export const WORD_JOINERS = './~-<>';

/** SQL that replaces every {@link WORD_JOINERS} character of `expression` with a space (faster than translate). */
export function splitJoinedWords(expression: string): string {
  return [...WORD_JOINERS].reduce(
    (inner, joiner) => `replace(${inner}, ${sqlString(joiner)}, ' ')`,
    expression,
  );
}

/** `text` as an SQL string literal. */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
