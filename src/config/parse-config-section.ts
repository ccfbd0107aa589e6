import type { z } from 'zod';
import type { ScratchpadError } from '../core/errors.js';
import { configFieldMeta } from './config-field.js';
import { type ConfigSource, configProblem } from './config-problem.js';

/**
 * The table at `keyPath` (`['runtime', 'summaries']`) of a parsed `config.toml`, checked against `schema` (a
 * `z.strictObject` of {@link configField} schemas, or a `z.looseObject` for a table other components also read):
 * the keys it holds, typed (an absent table holds none). A value that is not a table, an unknown key (strict
 * schemas), or a wrong value is a `CONFIG_INVALID` naming the file, the key's
 * line, what the key expects and what was given.
 */
export function parseConfigSection<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape, z.core.$ZodObjectConfig>,
  value: unknown,
  keyPath: readonly string[],
  source: ConfigSource,
): Partial<z.output<z.ZodObject<Shape>>> {
  const name = keyPath.join('.');
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date)
    throw configProblem(source, keyPath, `${name} must be a table`, `Write it as a section: [${name}].`);
  const result = schema.partial().safeParse(value);
  if (result.success) return result.data as Partial<z.output<z.ZodObject<Shape>>>;
  const issues = result.error.issues;
  const first = issues.find((issue) => issue.code === 'unrecognized_keys') ?? issues[0];
  throw sectionProblem(schema, value as Record<string, unknown>, first, keyPath, source);
}

function sectionProblem(
  schema: z.ZodObject,
  table: Record<string, unknown>,
  issue: z.core.$ZodIssue | undefined,
  keyPath: readonly string[],
  source: ConfigSource,
): ScratchpadError {
  const name = keyPath.join('.');
  const known = Object.keys(schema.shape);
  if (issue?.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    return configProblem(
      source,
      [...keyPath, key],
      `unknown key ${key} in [${name}]`,
      `Known keys: ${known.join(', ')}.`,
    );
  }
  const key = String(issue?.path[0] ?? '');
  const meta = configFieldMeta.get(schema.shape[key] as z.ZodType);
  const custom = issue?.code === 'custom' && issue.message !== 'Invalid input';
  const expected = custom ? issue.message : (meta?.expected ?? 'valid');
  const hint =
    custom && typeof issue.params?.hint === 'string'
      ? issue.params.hint
      : `Write ${key} = ${meta?.example ?? '…'}.`;
  return configProblem(
    source,
    [...keyPath, key],
    meta?.redact
      ? `${key} must be ${expected}`
      : `${key} must be ${expected} (got ${givenAt(table[key], issue?.path[1])})`,
    hint,
  );
}

/** What was given for a key, or for its item at `index` when a list holds one bad item: `"B", item 2`. */
function givenAt(value: unknown, index: PropertyKey | undefined): string {
  if (Array.isArray(value) && typeof index === 'number') return `${given(value[index])}, item ${index + 1}`;
  return given(value);
}

/** A short, printable account of a wrong value: `"yes"`, `0`, `a list of 3`, `a table`. */
function given(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (value instanceof Date) return 'a date';
  return 'a table';
}
