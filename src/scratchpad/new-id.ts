import { randomBytes } from 'node:crypto';

/** A new random entry id: 16 lowercase hex characters. */
export function newId(): string {
  return randomBytes(8).toString('hex');
}
