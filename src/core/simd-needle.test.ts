import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sampleByteCounts } from './byte-counts.js';
import { foldableAscii, RegionCopy, SimdNeedle, scanBuffer, simdAvailable } from './simd-needle.js';

/** Every start of `needle` in `text`, ignoring ASCII case (JavaScript's own search of the escaped literal). */
function reference(text: string, needle: string, ignoreCase: boolean): number[] {
  const regex = new RegExp(needle.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&'), ignoreCase ? 'gi' : 'g');
  const found: number[] = [];
  for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
    found.push(match.index);
    regex.lastIndex = match.index + 1;
  }
  return found;
}

function allStarts(probe: SimdNeedle, text: Buffer, from: number, end: number): number[] {
  const found: number[] = [];
  probe.startRegion();
  for (let at = probe.next(text, from, end); at !== -1; at = probe.next(text, at + 1, end)) found.push(at);
  return found;
}

const alphabet = ['e', 'E', 'r', 'R', 'o', 'O', '@', '`', '[', '{', ' ', '\n', 'x'];
const asciiText = fc
  .array(fc.constantFrom(...alphabet), { maxLength: 300, size: 'max' })
  .map((parts) => parts.join(''));
const needles = fc.constantFrom(
  'error',
  'e',
  'Er',
  'rO x',
  'x@',
  '`[',
  'ERROR',
  'oe{',
  '@`@`@`@`@`@`@`@`@`@`',
);

describe('SimdNeedle', () => {
  it('runs here (WebAssembly SIMD)', () => {
    expect(simdAvailable()).toBe(true);
  });

  it('property: finds every start a case-insensitive search finds, in any buffer and range', () => {
    fc.assert(
      fc.property(
        asciiText,
        needles,
        fc.boolean(),
        fc.nat(20),
        fc.nat(20),
        fc.boolean(),
        (text, needle, inScanBuffer, cutStart, cutEnd, ignoreCase) => {
          const bytes = Buffer.from(text, 'latin1');
          // A view into a scan buffer (searched where it is) or a plain one (copied to the needle's memory).
          const holder = inScanBuffer
            ? scanBuffer(bytes.byteLength + 32)
            : Buffer.alloc(bytes.byteLength + 32);
          bytes.copy(holder, 7);
          const view = holder.subarray(7, 7 + bytes.byteLength);
          const from = Math.min(cutStart, bytes.byteLength);
          const end = Math.max(from, bytes.byteLength - cutEnd);
          const probe = new SimdNeedle(
            Buffer.from(needle, 'latin1'),
            sampleByteCounts(view, ignoreCase),
            ignoreCase,
          );
          const expected = reference(text.slice(0, end), needle, ignoreCase).filter((at) => at >= from);
          expect(allStarts(probe, view, from, end)).toEqual(expected);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('property: countLines counts the lines that hold the needle, then next finds the rest', () => {
    const lines = fc
      .array(fc.constantFrom(...alphabet, 'error', 'ERROR\n'), { maxLength: 200, size: 'max' })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(
        lines,
        needles,
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 30 }),
        (text, needle, inScanBuffer, ignoreCase, maxLines) => {
          const bytes = Buffer.from(text, 'latin1');
          const holder = inScanBuffer
            ? scanBuffer(bytes.byteLength + 32)
            : Buffer.alloc(bytes.byteLength + 32);
          bytes.copy(holder, 5);
          const view = holder.subarray(5, 5 + bytes.byteLength);
          const probe = new SimdNeedle(
            Buffer.from(needle, 'latin1'),
            sampleByteCounts(view, ignoreCase),
            ignoreCase,
          );
          probe.startRegion();
          // As the grep counts: WebAssembly first, then `next` for the tail it leaves, line by line.
          let count = 0;
          let position = 0;
          while (position < view.byteLength && count < maxLines) {
            const counted = probe.countLines(view, position, view.byteLength, maxLines - count);
            if (!counted) throw new Error('a short needle is counted');
            count += counted.lines;
            position = counted.stoppedAt;
            if (count >= maxLines || position >= view.byteLength) break;
            const at = probe.next(view, position, view.byteLength);
            if (at === -1) break;
            count++;
            const newline = view.indexOf(10, at);
            position = newline === -1 ? view.byteLength : newline + 1;
          }
          const folded = (value: string): string => (ignoreCase ? value.toLowerCase() : value);
          const expected = text.split('\n').filter((line) => folded(line).includes(folded(needle))).length;
          expect(count).toBe(Math.min(expected, maxLines));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('property: text that ends exactly at the end of its WebAssembly memory is searched and counted within it', () => {
    fc.assert(
      fc.property(
        asciiText,
        needles,
        fc.boolean(),
        fc.nat(40),
        fc.boolean(),
        (text, needle, ignoreCase, before, inScanBuffer) => {
          // The text at the end of a scan buffer, which ends where its memory does (a read past the text traps),
          // or of a plain buffer (copied to the needle's memory, where the copy ends at the memory's end too).
          const bytes = Buffer.from(text, 'latin1');
          const size = before + bytes.byteLength;
          const buffer = inScanBuffer ? scanBuffer(size) : Buffer.alloc(size);
          if (inScanBuffer) expect(buffer.byteOffset + buffer.byteLength).toBe(buffer.buffer.byteLength);
          buffer.fill('x', 0, before);
          bytes.copy(buffer, before);
          const probe = new SimdNeedle(
            Buffer.from(needle, 'latin1'),
            sampleByteCounts(buffer, ignoreCase),
            ignoreCase,
          );
          const expected = reference(text, needle, ignoreCase).map((at) => before + at);
          expect(allStarts(probe, buffer, before, size)).toEqual(expected);
          const counted = probe.countLines(buffer, before, size, 1_000_000);
          const lines = text.split('\n');
          const folded = (value: string): string => (ignoreCase ? value.toLowerCase() : value);
          // What WebAssembly counts stops short of the last 16 + distance bytes: at most every matching line.
          expect(counted?.lines).toBeLessThanOrEqual(
            lines.filter((line) => folded(line).includes(folded(needle))).length,
          );
          expect(counted?.stoppedAt).toBeGreaterThanOrEqual(before);
          expect(counted?.stoppedAt).toBeLessThanOrEqual(size);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('searches a new region after startRegion, not the copy of the last one', () => {
    const probe = new SimdNeedle(Buffer.from('error'), sampleByteCounts(Buffer.from('x'), true));
    const text = Buffer.from('an ERROR here, and an Error there and more text after it');
    expect(allStarts(probe, text, 0, text.byteLength)).toEqual([3, 22]);
    Buffer.from('no match at all in this text, none, none, none, none').copy(text);
    expect(allStarts(probe, text, 0, text.byteLength)).toEqual([]);
  });

  it('needles sharing a RegionCopy copy a region once: the second searches the copy the first made', () => {
    const copies = new RegionCopy();
    const counts = sampleByteCounts(Buffer.from('x'), true);
    const error = new SimdNeedle(Buffer.from('error'), counts, true, copies);
    const warning = new SimdNeedle(Buffer.from('warn'), counts, true, copies);
    const text = Buffer.from('an ERROR here, a WARNING there, and more text after both of them');
    error.startRegion();
    warning.startRegion();
    expect(error.next(text, 0, text.byteLength)).toBe(3);
    // Changed after the first needle searched it (the grep never does this within a region): not copied again.
    text.fill('x', 17, 21);
    expect(warning.next(text, 0, text.byteLength)).toBe(17);
    warning.startRegion();
    expect(warning.next(text, 0, text.byteLength)).toBe(-1);
  });

  it('takes non-empty ASCII needles (k and s also fold to K and ſ: the grep checks a region for those)', () => {
    expect(foldableAscii('error')).toBe(true);
    expect(foldableAscii('a-b [x] @`{')).toBe(true);
    expect(foldableAscii('task')).toBe(true);
    expect(foldableAscii('K')).toBe(true);
    expect(foldableAscii('ERRÖR')).toBe(false);
    expect(foldableAscii('')).toBe(false);
  });
});
