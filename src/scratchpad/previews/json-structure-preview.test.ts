import { describe, expect, it } from 'vitest';
import { jsonStructurePreview } from './json-structure-preview.js';

describe('jsonStructurePreview', () => {
  it('describes keys, types, array lengths and merged item shapes', () => {
    const users = Array.from({ length: 120 }, (_, index) => ({
      id: index + 1,
      name: `user ${index}`,
      ...(index % 4 === 0 ? {} : { email: `u${index}@example.com` }),
      tags: index % 2 === 0 ? ['a', 'b'] : [],
    }));
    const preview = jsonStructurePreview({ users: users.slice(0, 100), next: null, total: 120 });
    expect(preview).toBe(
      [
        'object, 3 keys',
        '  users: array[100] of object',
        '    id: number (1)',
        '    name: string ("user 0")',
        '    tags: array[0..2] of string',
        '    email?: string ("u1@example.com") in 75 of 100',
        '  next: null',
        '  total: number (120)',
      ].join('\n'),
    );
  });

  it('describes scalars and arrays at the top', () => {
    expect(jsonStructurePreview(42)).toBe('number (42)');
    expect(jsonStructurePreview([1, 'two', null])).toBe('array[3] of number | string | null');
    expect(jsonStructurePreview([])).toBe('array[0]');
  });

  it('bounds keys, depth and lines', () => {
    const wide = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`k${index}`, index]));
    const lines = jsonStructurePreview(wide, { maxKeys: 5 }).split('\n');
    expect(lines).toHaveLength(7);
    expect(lines.at(-1)).toBe('  … 35 more keys');
    let deep: unknown = { leaf: 1 };
    for (let level = 0; level < 10; level++) deep = { nested: deep };
    const deepPreview = jsonStructurePreview(deep as never, { maxDepth: 3 });
    expect(deepPreview).toBe(
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
  });

  it('clips long string examples', () => {
    expect(jsonStructurePreview({ text: 'x'.repeat(100) }, { exampleChars: 10 })).toBe(
      'object, 1 key\n  text: string ("xxxxxxxxxx…)',
    );
  });
});
