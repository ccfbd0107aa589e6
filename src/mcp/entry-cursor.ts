import { ScratchpadError } from '../core/errors.js';
import { isValidName } from '../core/names.js';

/** An opaque `resources/list` cursor: the name of the last entry served, so pages stay stable as entries change. */
export function encodeCursor(lastName: string): string {
  return Buffer.from(JSON.stringify({ after: lastName }), 'utf8').toString('base64url');
}

/** The entry name a cursor continues after; `INVALID_ARGUMENT` for a cursor this server did not make. */
export function decodeCursor(cursor: string): string {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { after?: unknown };
    if (typeof value.after === 'string' && isValidName(value.after)) return value.after;
  } catch {
    // reported below
  }
  throw new ScratchpadError('INVALID_ARGUMENT', 'Invalid resources/list cursor.', {
    hint: 'Pass the nextCursor of the previous page unchanged, or list again without a cursor.',
  });
}
