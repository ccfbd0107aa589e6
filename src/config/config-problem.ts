import { ScratchpadError } from '../core/errors.js';
import { tomlKeyLine } from './toml-key-line.js';

/** The config file a section was read from: its text (to find a key's line) and its path (to name it). */
export interface ConfigSource {
  readonly text: string;
  readonly path: string;
}

/**
 * The `CONFIG_INVALID` for the key at `keyPath` (`['runtime', 'summaries', 'max_bytes']`) of a config file:
 * `path:line: message`, with `hint`, and `{ path, line, key }` in the details.
 */
export function configProblem(
  source: ConfigSource,
  keyPath: readonly string[],
  message: string,
  hint: string,
): ScratchpadError {
  const line = tomlKeyLine(source.text, keyPath);
  return new ScratchpadError('CONFIG_INVALID', `${source.path}${line ? `:${line}` : ''}: ${message}`, {
    hint,
    details: { path: source.path, line, key: keyPath.join('.') },
  });
}
