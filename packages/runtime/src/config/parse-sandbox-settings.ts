import { configField, parseConfigSection } from 'llm-scratchpad/extension';
import { z } from 'zod';
import { defaultSandboxSettings, type SandboxSettings } from '../sandbox/sandbox-settings.js';

const SANDBOX_LIMITS = defaultSandboxSettings().limits;
const PATH_LIST = 'absolute paths or paths starting with ~/';
const isAbsoluteOrHome = (item: string): boolean => item === '~' || item.startsWith('~/') || item.startsWith('/');

const SANDBOX_SCHEMA = z.strictObject({
  enabled: configField.boolean(),
  bwrap: configField.custom(z.string().refine((bwrap) => bwrap.startsWith('/')), {
    expected: 'an absolute path',
    example: '"/usr/bin/bwrap"',
  }),
  write_roots: configField.stringList(PATH_LIST, '["~/projects/site", "/srv/data"]', isAbsoluteOrHome),
  hide: configField.stringList(PATH_LIST, '["~/.ssh", "/srv/secrets"]', isAbsoluteOrHome),
  network: configField.stringList('executor names', '["shell_exec"]'),
  local_network: configField.stringList('executor names', '["web_fetch"]'),
  memory_mb: configField.integer(1, 1024 * 1024, `${SANDBOX_LIMITS.memoryMb}`),
  processes: configField.integer(1, 4_194_304, `${SANDBOX_LIMITS.processes}`),
  file_size_mb: configField.integer(1, 1024 * 1024 * 1024, `${SANDBOX_LIMITS.fileSizeMb}`),
});

/**
 * Reads the `[runtime.sandbox]` table of a parsed `config.toml` (`section`, undefined when absent): `enabled`,
 * `bwrap`, `write_roots`, `hide`, `network`, `local_network`, and the limits of each call `memory_mb`, `processes` and
 * `file_size_mb` (positive integers). A wrong type, an unknown key or a relative path is a
 * `CONFIG_INVALID` naming the file and line.
 */
export function parseSandboxSettings(section: unknown, text: string, path: string): SandboxSettings {
  const table = parseConfigSection(SANDBOX_SCHEMA, section, ['runtime', 'sandbox'], { text, path });
  const settings = defaultSandboxSettings();
  if (table.enabled !== undefined) settings.enabled = table.enabled;
  if (table.bwrap !== undefined) settings.bwrapPath = table.bwrap;
  if (table.write_roots !== undefined) settings.writeRoots = table.write_roots;
  if (table.hide !== undefined) settings.hide = table.hide;
  if (table.network !== undefined) settings.network = table.network;
  if (table.local_network !== undefined) settings.localNetwork = table.local_network;
  if (table.memory_mb !== undefined) settings.limits.memoryMb = table.memory_mb;
  if (table.processes !== undefined) settings.limits.processes = table.processes;
  if (table.file_size_mb !== undefined) settings.limits.fileSizeMb = table.file_size_mb;
  return settings;
}
