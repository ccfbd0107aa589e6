import type { EntryRecord } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import { MAX_RETRIES } from './write-retry.js';

/** `ENTRY_EXISTS` for create mode, `VERSION_CONFLICT` when `ifVersion` does not match. */
export function checkPrecondition(
  current: EntryRecord | undefined,
  ifVersion: number | undefined,
  name: string,
  mustNotExist: boolean,
): void {
  if (mustNotExist && current) {
    throw new ScratchpadError(
      'ENTRY_EXISTS',
      `Entry "${name}" already exists (version ${current.version}).`,
      {
        hint: 'Choose another name, or write with mode "replace" to overwrite it.',
        details: { name, version: current.version },
      },
    );
  }
  if (ifVersion === undefined) return;
  const actual = current?.version ?? 0;
  if (actual !== ifVersion) throw conflict(name, current, ifVersion);
}

/** The `VERSION_CONFLICT` error, with the version to retry with. */
export function conflict(
  name: string,
  current: EntryRecord | undefined,
  expected: number | undefined,
  attempts = MAX_RETRIES + 1,
): ScratchpadError {
  const actual = current?.version ?? 0;
  if (expected === undefined) {
    return new ScratchpadError(
      'VERSION_CONFLICT',
      attempts === 1
        ? `"${name}" changed while writing, and the content was a stream, which cannot be replayed: nothing was written.`
        : `"${name}" kept changing while writing; gave up after ${attempts} attempts: nothing was written.`,
      {
        hint:
          attempts === 1
            ? 'Write it again (give bytes or a string to have concurrent writes retried).'
            : 'Another writer changes it continuously; write it again later.',
        details: { name, expected, actual, attempts },
      },
    );
  }
  return new ScratchpadError(
    'VERSION_CONFLICT',
    `"${name}" is at version ${actual}, not ${expected}: someone else changed it.`,
    {
      hint:
        actual === 0
          ? 'It does not exist now; write it without ifVersion (or with ifVersion 0).'
          : `Read it again, then retry with ifVersion ${actual}.`,
      details: { name, expected, actual },
    },
  );
}
