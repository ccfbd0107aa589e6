import type { Entry } from '../../core/entry.js';
import { formatCount } from '../../core/format.js';
import { codePointLength } from '../../core/utf8.js';

/** The text blocks of an upstream result, with their places in its `content`. */
export interface TextBlocks {
  texts: string[];
  /** Index in `content` of each text block. */
  indexes: number[];
}

/** The text blocks stored as one entry. */
export interface StoredText extends TextBlocks {
  entry: Entry;
}

/**
 * What the entry of a result's text holds: one text block as it is; several as the JSON array of their texts
 * (one string per block, in order), so each block comes back exactly (never joined: a separator would add
 * characters and lines the upstream did not send, none would merge lines).
 */
export function storedTextValue(blocks: TextBlocks): string | string[] {
  return blocks.texts.length === 1 ? (blocks.texts[0] ?? '') : blocks.texts;
}

/** What the model is told about an entry that holds several text blocks (nothing for one). */
export function textBlocksNote(blocks: TextBlocks): string {
  if (blocks.texts.length < 2) return '';
  const places = blocks.indexes.map((index) => `content[${index}]`);
  const sizes = blocks.texts.map((text) => formatCount(codePointLength(text)));
  return `\nThe entry holds the result's ${blocks.texts.length} text blocks (${listed(sizes)} chars; ${places.join(', ')}) as a JSON array of strings, one element per block, exactly as sent.`;
}

/** What the link to a result's text entry says it holds. */
export function textHolds(blocks: TextBlocks, tool: string): string {
  return blocks.texts.length === 1
    ? `The text of ${tool}'s result`
    : `The ${blocks.texts.length} text blocks of ${tool}'s result, as a JSON array of strings`;
}

/**
 * Where a text entry holds `value`: the whole entry (one block), the JSON Pointer of its block (several), or
 * `undefined` when it is no block's text.
 */
export function textBlockPlace(stored: StoredText, value: unknown): { pointer?: string } | undefined {
  if (typeof value !== 'string') return undefined;
  if (stored.texts.length === 1) return stored.texts[0] === value ? {} : undefined;
  const index = stored.texts.indexOf(value);
  return index === -1 ? undefined : { pointer: `/${index}` };
}

/** `a`, `a and b`, `a, b and c`. */
function listed(items: string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
