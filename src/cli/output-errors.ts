import { ScratchpadError } from '../core/errors.js';

/**
 * Failures writing the CLI's own output. A reader that closed early (`scratchpad read big | head -1`) is not an
 * error: the command ends quietly with exit 0. A full disk or an I/O error on stdout (`> /dev/full`) is one line on
 * stderr and exit 1, never a stack trace.
 */
export function outputErrorCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EPIPE' || code === 'ENOSPC' || code === 'EIO' || code === 'EDQUOT' || code === 'EBADF'
    ? code
    : undefined;
}

/** True when `error` means the reader of stdout went away. */
export function isClosedOutput(error: unknown): boolean {
  return outputErrorCode(error) === 'EPIPE';
}

/** The one-line error for a write to stdout that failed for lack of space or an I/O error. */
export function outputFailure(error: unknown): ScratchpadError {
  const code = outputErrorCode(error) ?? 'EIO';
  const full = code === 'ENOSPC' || code === 'EDQUOT';
  return new ScratchpadError(
    full ? 'STORE_FULL' : 'STORE_UNAVAILABLE',
    full
      ? 'Cannot write the output: no space left on the device stdout goes to.'
      : `Cannot write the output (${code}).`,
    { hint: full ? 'Free space there, or send the output somewhere else.' : 'Check where stdout goes.' },
  );
}

/**
 * Handles errors a stream emits outside any pending write (Node emits EPIPE on stdout as an `error` event):
 * a closed reader ends the process quietly, anything else is reported once.
 */
export function guardOutputStream(
  stream: NodeJS.WritableStream,
  report: (error: unknown) => void,
  exit: (code: number) => void,
): void {
  stream.on('error', (error: unknown) => {
    if (isClosedOutput(error)) exit(0);
    else {
      report(error);
      exit(1);
    }
  });
}
