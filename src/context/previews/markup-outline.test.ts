import { describe, expect, it } from 'vitest';
import { sampleContent } from './content-sample.js';
import { markupOutline } from './markup-outline.js';

const linesOf = (text: string) => sampleContent(text).lines;

describe('markupOutline', () => {
  it('outlines XML as an element tree with counts and first lines', () => {
    const xml = [
      '<?xml version="1.0"?>',
      '<testsuites tests="3" failures="1">',
      '  <testsuite name="a">',
      '    <testcase name="one"/>',
      '    <testcase name="two"><failure>boom</failure></testcase>',
      '  </testsuite>',
      '</testsuites>',
    ].join('\n');
    expect(markupOutline(linesOf(xml))).toEqual({
      kind: 'XML',
      root: 'testsuites',
      lines: [
        { text: '  testsuites ×1 (first on line 2)', depth: 1 },
        { text: '    testsuite ×1 (first on line 3)', depth: 2 },
        { text: '      testcase ×2 (first on line 4)', depth: 3 },
        { text: '        failure ×1 (first on line 5)', depth: 4 },
      ],
    });
  });

  it('gives HTML its title and headings, and survives unclosed elements', () => {
    const html = `<!DOCTYPE html><html><head><title> Report  </title></head><body>\n<h1>Sales</h1>${'<p>x'.repeat(400)}\n<h2 class="x">Q<b>1</b></h2></body></html>`;
    const outline = markupOutline(linesOf(html));
    expect(outline).toMatchObject({ kind: 'HTML', title: 'Report', root: 'html' });
    expect(outline?.lines.slice(0, 2)).toEqual([
      { text: '  h1 Sales (line 2)', depth: 1 },
      { text: '    h2 Q1 (line 3)', depth: 1 },
    ]);
    expect(markupOutline(linesOf('plain text <b>bold</b>'))).toBeUndefined();
  });
});
