import { tomlKeyLine } from 'llm-scratchpad/extension';
import { ScratchpadError } from 'llm-scratchpad';
import { defaultSandboxSettings, type SandboxSettings } from '../sandbox/sandbox-settings.js';

const SANDBOX_KEYS = [
  'enabled',
  'bwrap',
  'write_roots',
  'hide',
  'network',
  'local_network',
  'memory_mb',
  'processes',
  'file_size_mb',
];
/** The limit keys, their field in `CallLimits` and the largest value accepted. */
const LIMIT_KEYS = [
  { key: 'memory_mb', field: 'memoryMb', max: 1024 * 1024 },
  { key: 'processes', field: 'processes', max: 4_194_304 },
  { key: 'file_size_mb', field: 'fileSizeMb', max: 1024 * 1024 * 1024 },
] as const;

/**
 * Reads the `[runtime.sandbox]` table of a parsed `config.toml` (`section`, undefined when absent): `enabled`,
 * `bwrap`, `write_roots`, `hide`, `network`, `local_network`, and the limits of each call `memory_mb`, `processes` and
 * `file_size_mb` (positive integers). A wrong type, an unknown key or a relative path is a
 * `CONFIG_INVALID` naming the file and line.
 */
export function parseSandboxSettings(section: unknown, text: string, path: string): SandboxSettings {
  const settings = defaultSandboxSettings();
  if (section === undefined) return settings;
  const problem = (key: string | undefined, message: string, hint: string): ScratchpadError => {
    const keyPath = ['runtime', 'sandbox', ...(key ? [key] : [])];
    const line = tomlKeyLine(text, keyPath);
    return new ScratchpadError('CONFIG_INVALID', `${path}${line ? `:${line}` : ''}: ${message}`, {
      hint,
      details: { path, line, key: keyPath.join('.') },
    });
  };
  if (typeof section !== 'object' || section === null || Array.isArray(section) || section instanceof Date)
    throw problem(undefined, 'runtime.sandbox must be a table', 'Write it as a section: [runtime.sandbox].');
  const table = section as Record<string, unknown>;
  for (const key of Object.keys(table)) {
    if (!SANDBOX_KEYS.includes(key))
      throw problem(
        key,
        `unknown key ${key} in [runtime.sandbox]`,
        `Known keys: ${SANDBOX_KEYS.join(', ')}.`,
      );
  }
  if (table.enabled !== undefined) {
    if (typeof table.enabled !== 'boolean')
      throw problem('enabled', 'enabled must be true or false', 'Write enabled = true (no quotes).');
    settings.enabled = table.enabled;
  }
  if (table.bwrap !== undefined) {
    if (typeof table.bwrap !== 'string' || !table.bwrap.startsWith('/'))
      throw problem('bwrap', 'bwrap must be an absolute path', 'Write bwrap = "/usr/bin/bwrap".');
    settings.bwrapPath = table.bwrap;
  }
  const paths = (key: 'write_roots' | 'hide'): string[] => {
    const list = stringList(table[key]);
    if (!list || list.some((item) => !(item === '~' || item.startsWith('~/') || item.startsWith('/'))))
      throw problem(
        key,
        `${key} must be a list of absolute paths or paths starting with ~/`,
        `Write ${key} = ["~/projects/site", "/srv/data"].`,
      );
    return list;
  };
  if (table.write_roots !== undefined) settings.writeRoots = paths('write_roots');
  if (table.hide !== undefined) settings.hide = paths('hide');
  if (table.network !== undefined) {
    const list = stringList(table.network);
    if (!list)
      throw problem('network', 'network must be a list of executor names', 'Write network = ["shell_exec"].');
    settings.network = list;
  }
  if (table.local_network !== undefined) {
    const list = stringList(table.local_network);
    if (!list)
      throw problem(
        'local_network',
        'local_network must be a list of executor names',
        'Write local_network = ["web_fetch"].',
      );
    settings.localNetwork = list;
  }
  for (const { key, field, max } of LIMIT_KEYS) {
    const value = table[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' && typeof value !== 'bigint')
      throw problem(
        key,
        `${key} must be a whole number`,
        `Write ${key} = ${settings.limits[field]} (no quotes).`,
      );
    const number = Number(value);
    if (!Number.isSafeInteger(number) || number < 1 || number > max)
      throw problem(
        key,
        `${key} must be a whole number from 1 to ${max}`,
        `Write ${key} = ${settings.limits[field]}.`,
      );
    settings.limits[field] = number;
  }
  return settings;
}

function stringList(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item === ''))
    return undefined;
  return value as string[];
}
