import { describe, expect, it } from 'vitest';
import { sampleContent } from './content-sample.js';
import { textOutline } from './text-outline.js';

const linesOf = (lines: string[]) => sampleContent(lines.join('\n')).lines;

describe('textOutline', () => {
  it('finds headings, banners, CI groups, patch files and commits', () => {
    const lines = linesOf([
      '# Report',
      'text',
      '2026-02-06T06:49:04.4217282Z ##[group]Run poetry run pytest',
      '============================= test session starts ==============================',
      'diff --git a/x.py b/x.py',
      'commit 3f2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4c',
      '# not a heading: inside a block',
    ]);
    expect(textOutline(lines).map((entry) => [entry.index, entry.text])).toEqual([
      [0, '# Report'],
      [2, '##[group]Run poetry run pytest'],
      [3, '============================= test session starts =============================='],
      [4, 'diff --git a/x.py b/x.py'],
      [5, 'commit 3f2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4c'],
    ]);
  });

  it('finds the definitions of source code, through a line-number gutter, and drops its comments', () => {
    const lines = linesOf([
      "Here's the result of running `cat -n` on /testbed/app.py:",
      '     1\t# Licensed under the MIT license',
      '     2\t',
      '     3\tclass Pager:',
      '     4\t    def page(self, number):',
      '     5\t        return number',
      '     6\texport async function load(url) {',
    ]);
    expect(textOutline(lines).map((entry) => entry.text)).toEqual([
      'class Pager:',
      'def page(self, number):',
      'export async function load(url) {',
    ]);
  });
});
