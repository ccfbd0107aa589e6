import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sampleContent, splitTextLines } from './content-sample.js';

describe('sampleContent', () => {
  it('reads a short text whole, numbering every line, without an empty last line', () => {
    expect(sampleContent('a\nb\r\n\nc\n')).toEqual({
      lines: [
        { number: 1, text: 'a', part: 'head' },
        { number: 2, text: 'b\r', part: 'head' },
        { number: 3, text: '', part: 'head' },
        { number: 4, text: 'c', part: 'head' },
      ],
      complete: true,
      totalChars: 8,
      sampledChars: 8,
    });
    expect(splitTextLines('')).toEqual([]);
  });

  it('reads a long text as whole lines from its head, middle windows and tail, within its limit', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ maxLength: 40 }).map((line) => line.replace(/\n/g, ' ')),
          { minLength: 50, maxLength: 400 },
        ),
        fc.integer({ min: 200, max: 1500 }),
        (lines, wholeLimit) => {
          const text = lines.join('\n');
          const sample = sampleContent(text, { wholeLimit });
          expect(sample.sampledChars).toBeLessThanOrEqual(Math.max(wholeLimit, text.length));
          if (text.length <= wholeLimit) {
            expect(sample.complete).toBe(true);
            return;
          }
          expect(sample.complete).toBe(false);
          const all = splitTextLines(text);
          for (const line of sample.lines) {
            if (line.number !== undefined && line.number > 0) expect(all[line.number - 1]).toBe(line.text);
            if (line.number !== undefined && line.number < 0)
              expect(all[all.length + line.number]).toBe(line.text);
            if (line.part === 'middle') expect(text.includes(line.text)).toBe(true);
          }
          expect(sample.lines.at(-1)).toEqual({ number: -1, text: all.at(-1), part: 'tail' });
        },
      ),
      { numRuns: 150 },
    );
  });

  it('costs the same on a 50 MB text as on a 1 MB one: the sample is bounded', () => {
    const line = 'INFO request served in 12 ms\n';
    const big = line.repeat(Math.ceil(50_000_000 / line.length));
    const sample = sampleContent(big);
    expect(sample.complete).toBe(false);
    expect(sample.sampledChars).toBeLessThanOrEqual(768 * 1024);
    expect(sample.lines.some((entry) => entry.part === 'middle')).toBe(true);
    const oneLine = 'x'.repeat(5_000_000);
    expect(sampleContent(oneLine).sampledChars).toBeLessThanOrEqual(768 * 1024);
  });
});
