import type { EntryRecord } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import { formatBytes } from '../../core/format.js';
import type { ServiceContext } from '../service-context.js';
import type { UpdateOptions, WriteOptions } from '../types.js';
import type { StagedContent } from './content-writer.js';
import {
  validateBoolean,
  validateMediaType,
  validateMetadata,
  validatePinned,
  validateTtl,
} from './option-rules.js';

/**
 * How often an operation without `ifVersion` retries after losing a race with another writer. Ten, so that a
 * crowd of processes appending to one name (ten CLI appends at once) all land: with jittered exponential
 * backoff ({@link retryDelay}) the last of them waits about a second in all.
 */
export const MAX_RETRIES = 10;

/** How long a writer that lost race `attempt` (0-based) waits before trying again: full jitter, capped at 250 ms. */
export function retryDelay(attempt: number): Promise<void> {
  const ceiling = Math.min(250, 5 * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
}

/** True when the entry has a TTL that has passed and is not pinned (a pinned entry never expires while pinned). */
export function isExpired(record: EntryRecord, now: number): boolean {
  return !record.pinned && record.expiresAt !== null && record.expiresAt <= now;
}

/** The given value, else the current one, else the fallback (`null` counts as given). */
export function pick<T>(given: T | undefined, current: T | undefined, fallback: T): T {
  return given !== undefined ? given : current !== undefined ? current : fallback;
}

/** The media type of content written without one. */
export function defaultMediaType(kind: 'text' | 'binary'): string {
  return kind === 'text' ? 'text/plain; charset=utf-8' : 'application/octet-stream';
}

/** `text` or `binary` for staged content: strings are text, bytes are text when they are valid UTF-8. */
export function decideKind(
  requested: WriteOptions['kind'],
  fromString: boolean,
  staged: StagedContent,
): 'text' | 'binary' {
  if (requested === 'binary') return 'binary';
  if (requested === 'text' && !staged.utf8) {
    throw new ScratchpadError('NOT_TEXT', 'The content is not valid UTF-8 text.', {
      hint: 'Write it with kind "binary" (or "auto").',
    });
  }
  if (requested === 'text' || fromString) return 'text';
  return staged.utf8 ? 'text' : 'binary';
}

/** `NOT_TEXT` unless the entry is text (lines, grep and edit need characters). */
export function assertText(record: EntryRecord, action: string): void {
  if (record.kind !== 'text') {
    throw new ScratchpadError(
      'NOT_TEXT',
      `Cannot ${action} "${record.name}": it is a binary entry (${formatBytes(record.bytes)}).`,
      {
        hint: 'Read binary entries by bytes (head, tail, range, offset) as base64 or hex.',
        details: { name: record.name, kind: record.kind },
      },
    );
  }
}

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

/** `INVALID_ARGUMENT` for a malformed write option. */
export function validateWriteOptions(options: WriteOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new ScratchpadError('INVALID_ARGUMENT', 'Write options must be an object.');
  }
  if (options.mode !== undefined && !['replace', 'append', 'create'].includes(options.mode)) {
    throw new ScratchpadError('INVALID_ARGUMENT', `Unknown write mode ${JSON.stringify(options.mode)}.`, {
      hint: 'Use "replace", "append" or "create".',
    });
  }
  if (options.kind !== undefined && !['text', 'binary', 'auto'].includes(options.kind)) {
    throw new ScratchpadError('INVALID_ARGUMENT', `Unknown kind ${JSON.stringify(options.kind)}.`, {
      hint: 'Use "text", "binary" or "auto".',
    });
  }
  validateEntryOptions(options);
  if (
    options.step !== undefined &&
    options.step !== null &&
    (!Number.isSafeInteger(options.step) || options.step < 0)
  ) {
    throw new ScratchpadError(
      'INVALID_ARGUMENT',
      `step must be an integer >= 0, got ${String(options.step)}.`,
    );
  }
  for (const field of ['turn', 'source'] as const) {
    const value = options[field];
    if (value !== undefined && value !== null && (typeof value !== 'string' || value.length > 256)) {
      throw new ScratchpadError(
        'INVALID_ARGUMENT',
        `${field} must be a string of at most 256 characters or null.`,
      );
    }
  }
}

/** `INVALID_ARGUMENT` for a malformed update option. */
export function validateUpdateOptions(options: UpdateOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new ScratchpadError('INVALID_ARGUMENT', 'Update options must be an object.');
  }
  validateEntryOptions(options);
}

/** The options a write and an update share: version precondition, TTL, pin, evictability, metadata, media type. */
function validateEntryOptions(options: UpdateOptions): void {
  validateIfVersion(options.ifVersion);
  if (options.ttlMs !== undefined) validateTtl(options.ttlMs);
  if (options.pinned !== undefined) validatePinned(options.pinned);
  if (options.evictable !== undefined) validateBoolean(options.evictable, 'evictable');
  if (options.metadata !== undefined) validateMetadata(options.metadata);
  if (options.mediaType !== undefined) validateMediaType(options.mediaType);
}

/** `ifVersion` is an integer >= 0 when given. */
export function validateIfVersion(ifVersion: unknown): void {
  if (ifVersion !== undefined && (!Number.isSafeInteger(ifVersion) || (ifVersion as number) < 0)) {
    throw new ScratchpadError(
      'INVALID_ARGUMENT',
      `ifVersion must be an integer >= 0, got ${String(ifVersion)}.`,
      {
        details: { option: 'ifVersion' },
      },
    );
  }
}

/** When an entry written at `now` expires (`undefined` TTL: the store default). */
export function expiry(
  context: ServiceContext,
  ttlMs: number | null | undefined,
  now: number,
): number | null {
  if (ttlMs === null) return null;
  if (ttlMs === undefined) return context.defaultTtlMs === null ? null : now + context.defaultTtlMs;
  return now + ttlMs;
}
