import { ScratchpadError } from '../core/errors.js';

/**
 * What a failed read of a config file means: `undefined` when the file is simply absent at the default path (the
 * defaults apply), else the `CONFIG_INVALID` naming the file (a file named explicitly must exist and be readable).
 * The runtime config and the CLI's store defaults read the same file and answer the same way.
 */
export function configReadError(
  path: string,
  error: unknown,
  explicit: boolean,
): ScratchpadError | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' && !explicit) return undefined;
  return new ScratchpadError(
    'CONFIG_INVALID',
    code === 'ENOENT'
      ? `Config file ${path} does not exist.`
      : `Cannot read config file ${path} (${code ?? (error as Error).message}).`,
    {
      hint:
        code === 'ENOENT'
          ? 'Create it, fix the path (SCRATCHPAD_CONFIG or the path you passed), or unset it to use the defaults.'
          : 'Check the file permissions, or point SCRATCHPAD_CONFIG to another file.',
      details: { path, code },
      cause: error,
    },
  );
}
