import { ScratchpadError } from '../../core/errors.js';
import type { UpdateOptions, WriteOptions } from '../types.js';
import {
  validateBoolean,
  validateMediaType,
  validateMetadata,
  validatePinned,
  validateTtl,
} from './option-rules.js';

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
