import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../core/json.js';
import { readJsonText } from './json-text.js';

describe('readJsonText', () => {
  it('reads a whole document, JSON Lines, and says no to text that is not JSON', () => {
    expect(readJsonText('\uFEFF  {"a": [1, 2]}')).toMatchObject({
      value: { a: [1, 2] },
      form: 'json',
      complete: true,
    });
    expect(readJsonText('{"a": 1}\n{"a": 2}\n')).toMatchObject({
      value: [{ a: 1 }, { a: 2 }],
      form: 'lines',
    });
    expect(readJsonText('hello {"a": 1}')).toBeUndefined();
    expect(readJsonText('[not json')).toBeUndefined();
  });

  it('reads the start of a long array and flags what the cut left open', () => {
    const items = Array.from({ length: 500 }, (_, index) => ({ id: index, tags: ['x', 'y'] }));
    const text = JSON.stringify({ items, total: 500 }, null, 2);
    const read = readJsonText(text, { maxChars: 2000 });
    if (!read) throw new Error('expected JSON');
    expect(read.complete).toBe(false);
    const value = read.value as { items: JsonValue[] };
    expect(value.items.length).toBeGreaterThan(5);
    // Every item but the last (which the cut may have closed early) is read exactly.
    expect(value.items.slice(0, -1)).toEqual(items.slice(0, value.items.length - 1));
    expect(read.cut.has(read.value)).toBe(true);
    expect(read.cut.has(value.items)).toBe(true);
  });

  it('reads a valid prefix of any JSON value cut anywhere', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), (value, at) => {
        const text = JSON.stringify(value, null, 1);
        if (typeof value !== 'object' || value === null) return;
        const cut = Math.max(1, at % (text.length + 1));
        const read = readJsonText(text, { maxChars: cut });
        if (cut >= text.length) expect(read?.value).toEqual(JSON.parse(text));
        // Whatever was read is valid JSON of the same kind as the document.
        if (read) expect(Array.isArray(read.value)).toBe(Array.isArray(value));
      }),
      { numRuns: 300 },
    );
  });
});
