import { describe, expect, it } from 'vitest';
import { sampleContent } from './content-sample.js';
import { looksLikeData, newNameIndex } from './name-index.js';

const linesOf = (lines: string[]) => sampleContent(lines.join('\n')).lines;

describe('newNameIndex', () => {
  it('lists new names once, leaving out seen ones, contained dotted parts, unmentioned files and data', () => {
    const index = newNameIndex(
      linesOf([
        'def separability_matrix(transform): return self.field.disabled',
        'see helpers.py and validators.py; session x14ede63a5a70048',
        'self.field.disabled again, block blk_38865049064139660',
      ]),
      { task: 'The validators reject valid URLs.', history: [{ observation: 'separability_matrix' }] },
    );
    expect(index.names.map((name) => [name.name, name.index, name.count])).toEqual([
      ['transform', 0, 1],
      ['self.field.disabled', 0, 2],
      ['validators.py', 1, 1],
    ]);
    expect(index).toMatchObject({ unmentionedFiles: 1, noise: 2 });
  });

  it('collapses families of names that differ in a number or a generated id', () => {
    const lines = Array.from({ length: 30 }, (_, index) => `mkdir subdir${index} us100${index}chvf.geojson`);
    const index = newNameIndex(linesOf(lines), {});
    expect(index.names.map((name) => [name.name, name.family])).toEqual([
      ['us1000chvf.geojson', 30],
      ['subdir10', 20],
    ]);
  });
});

describe('looksLikeData', () => {
  it.each([
    ['x14ede63a5a70048', true],
    ['blk_38865049064139660', true],
    ['MDEyOk9yZ2FuaXphdGlvbjMxODk4MTAw', true],
    ['eyJwYWdlIjoyfQeyJhbGciOi', true],
    ['v20240101', true],
    ['FastLeaderElection', false],
    ['getElementById', false],
    ['python3.11', false],
    ['log4j12.jar', false],
    ['separability_matrix', false],
  ])('%s → %s', (name, expected) => {
    expect(looksLikeData(name)).toBe(expected);
  });
});
