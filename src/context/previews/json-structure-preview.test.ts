import { describe, expect, it } from 'vitest';
import { jsonStructurePreview } from './json-structure-preview.js';

describe('jsonStructurePreview', () => {
  it('describes keys, types, array lengths, ranges, categories and merged item shapes', () => {
    const users = Array.from({ length: 120 }, (_, index) => ({
      id: index + 1,
      name: `user ${index}`,
      ...(index % 4 === 0 ? {} : { email: `u${index}@example.com` }),
      role: index < 3 ? 'admin' : 'user',
      tags: index % 2 === 0 ? ['a', 'b'] : [],
    }));
    const preview = jsonStructurePreview({ users: users.slice(0, 100), next: null, total: 120 });
    expect(preview).toBe(
      [
        'object, 3 keys',
        '  users: array[100] of object',
        '    id: number (1…100)',
        '    name: string ("user 0")',
        '    role: string ("user" 97, "admin" 3)',
        '    tags: array[0..2] of string ("a" 50, "b" 50)',
        '    email?: string ("u1@example.com") in 75 of 100',
        '  next: null',
        '  total: number (120)',
      ].join('\n'),
    );
  });

  it('describes scalars, mixed arrays and maps', () => {
    expect(jsonStructurePreview(42)).toBe('number (42)');
    expect(jsonStructurePreview([1, 'two', null])).toBe('array[3] of number | string | null (1)');
    expect(jsonStructurePreview([])).toBe('array[0]');
    const versions = Object.fromEntries(
      Array.from({ length: 40 }, (_, index) => [`1.${index}.0`, `2024-01-${index}`]),
    );
    expect(jsonStructurePreview({ time: versions })).toBe(
      'object, 1 key\n  time: object with 40 keys like "1.0.0", "1.1.0", "1.2.0": string',
    );
  });

  it('bounds keys (naming the rest), depth and lines, and marks lengths a cut read could not count', () => {
    const wide = Object.fromEntries(
      Array.from({ length: 40 }, (_, index) => [`k${index}`, index % 2 ? index : 'v']),
    );
    const lines = jsonStructurePreview(wide, { maxKeys: 5 }).split('\n');
    expect(lines).toHaveLength(7);
    expect(lines.at(-1)).toMatch(/^ {2}… 35 more keys: k5, k6, k7, .*, k37, …$/);
    let deep: unknown = { leaf: 1 };
    for (let level = 0; level < 10; level++) deep = { nested: deep };
    expect(jsonStructurePreview(deep as never, { maxDepth: 3 })).toBe(
      [
        'object, 1 key',
        '  nested: object, 1 key',
        '    nested: object, 1 key',
        '      nested: object, 1 key',
        '        …',
      ].join('\n'),
    );
    const long = jsonStructurePreview(wide, { maxLines: 10 }).split('\n');
    expect(long).toHaveLength(10);
    expect(long.at(-1)).toMatch(/^… \d+ more lines of structure$/);
    const items = [1, 2, 3, 4, 5];
    expect(jsonStructurePreview({ items }, { cut: new Set([items]) })).toBe(
      [
        "object, 1 key (counts marked ≥ are lower bounds: read from the start, or from an array's first items)",
        '  items: array[≥5] of number (1…5 in the items read)',
      ].join('\n'),
    );
  });

  it('clips long string examples', () => {
    expect(jsonStructurePreview({ text: 'x'.repeat(100) }, { exampleChars: 10 })).toBe(
      'object, 1 key\n  text: string ("xxxxxxxxxx…)',
    );
  });
});
