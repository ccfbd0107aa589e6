import { createHash } from 'node:crypto';
import type { Entry } from '../../../core/entry.js';

/**
 * Seed 003's key rule, as its Python reference applies it: every character must satisfy `c.isalnum()` (Unicode
 * letters and numbers) or be `-`/`_`. Keys are checked, never rewritten.
 */
export function isHarnessKey(key: string): boolean {
  return /^[\p{L}\p{N}_-]+$/u.test(key);
}

const PLAIN = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The store entry name for a harness key. Keys that are already valid entry names are used as is (so files in
 * the `fs` backend are named like the seed's `KEY.txt`, minus the extension); Unicode or over-long keys map to a
 * stable hashed name and keep the key in the entry's metadata.
 */
export function entryNameForKey(key: string): string {
  if (PLAIN.test(key)) return key;
  return `key-${createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 40)}`;
}

/** The harness key an entry holds, or `undefined` when the entry is not readable through the harness tools. */
export function keyOfEntry(entry: Entry): string | undefined {
  const stored = entry.metadata.harnessKey;
  if (typeof stored === 'string' && entryNameForKey(stored) === entry.name) return stored;
  return PLAIN.test(entry.name) && !entry.name.startsWith('key-') ? entry.name : undefined;
}

/** Python's `sorted()` order for strings: by code point (JavaScript's default sort compares UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const difference = (left[index]?.codePointAt(0) as number) - (right[index]?.codePointAt(0) as number);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}
