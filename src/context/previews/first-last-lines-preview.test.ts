import { describe, expect, it } from 'vitest';
import { firstLastLinesPreview, splitLines } from './first-last-lines-preview.js';

const numbered = (number: number, text: string) => `${String(number).padStart(6)}\t${text}`;

describe('firstLastLinesPreview (LangChain deepagents)', () => {
  it('shows the first 5 and last 5 lines, numbered, around the truncated count', () => {
    const text = Array.from({ length: 30 }, (_, index) => `line ${index + 1}`).join('\n');
    const expected = [
      ...[1, 2, 3, 4, 5].map((number) => numbered(number, `line ${number}`)),
      '... [20 lines truncated] ...',
      ...[26, 27, 28, 29, 30].map((number) => numbered(number, `line ${number}`)),
    ].join('\n');
    expect(firstLastLinesPreview(text)).toBe(expected);
  });

  it('shows every line when there are 10 or fewer', () => {
    expect(firstLastLinesPreview('a\nb\nc\n')).toBe(
      [numbered(1, 'a'), numbered(2, 'b'), numbered(3, 'c')].join('\n'),
    );
    expect(firstLastLinesPreview('')).toBe('');
  });

  it('clips each shown line to 1,000 characters', () => {
    const long = 'x'.repeat(2500);
    const text = [long, ...Array.from({ length: 20 }, () => 'y'), long].join('\n');
    const preview = firstLastLinesPreview(text);
    expect(preview.split('\n')[0]).toBe(numbered(1, 'x'.repeat(1000)));
    expect(preview.split('\n').at(-1)).toBe(numbered(22, 'x'.repeat(1000)));
  });

  it('splits lines like Python str.splitlines()', () => {
    expect(splitLines('a\r\nb\rc\nd\u2028e\n')).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(splitLines('\n')).toEqual(['']);
    expect(splitLines('a\n\nb')).toEqual(['a', '', 'b']);
  });
});
