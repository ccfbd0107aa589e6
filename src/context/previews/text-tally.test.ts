import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flatString, probeEventLoop, TEST_STALL_BOUND_MS } from '../../../test/support/event-loop-probe.js';
import { splitTextLines } from './content-sample.js';
import { lineSignal } from './line-signals.js';
import { signalShape } from './stand-outs.js';
import { tallyText } from './text-tally.js';

/** The counts a line-by-line reading gives: what the tally must equal. */
function naiveTally(text: string) {
  const lines = splitTextLines(text);
  const severities = [0, 0, 0, 0, 0];
  const shapes = new Map<string, number[]>();
  for (const line of lines) {
    const signal = lineSignal(line);
    if (!signal) continue;
    severities[signal.severity] = (severities[signal.severity] as number) + 1;
    const counts = shapes.get(signalShape(line)) ?? [0, 0, 0, 0, 0];
    counts[signal.severity] = (counts[signal.severity] as number) + 1;
    shapes.set(signalShape(line), counts);
  }
  return { chars: text.length, lines: lines.length, severities, shapes };
}

const PIECES = [
  'INFO request served',
  'ERROR disk full',
  'WARN slow replica',
  'error: cannot open',
  'E   assert 1 == 2',
  'status=503',
  'GET 404 /x',
  'E/Tag( 12): boom',
  'exit code 1',
  'not ok 3 - parse',
  'Traceback (most recent call last)',
  '  fatal: bad ref',
  'timeout',
  'rc=2',
  'café ✓',
  ' ',
  '',
  'x'.repeat(300),
];

describe('tallyText', () => {
  it('counts lines and lines of each severity exactly as a line-by-line reading does, across any chunk cut', async () => {
    const line = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 12 })), {
      minLength: 0,
      maxLength: 4,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 40 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.integer({ min: 1, max: 64 }),
        async (rows, end, finalNewline, chunkChars) => {
          const text = rows.map((words) => words.join(' ')).join(end) + (finalNewline ? end : '');
          expect(await tallyText(text, { chunkChars })).toEqual(naiveTally(text));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('counts signal lines by shape, digits masked, and past the most shapes it keeps, keeps the severities only', async () => {
    const text = 'ERROR a 1\nWARN b\nINFO c\nERROR a 22\nERROR d\n';
    expect((await tallyText(text)).shapes).toEqual(
      new Map([
        ['ERROR a 0', [0, 0, 0, 2, 0]],
        ['WARN b', [0, 0, 1, 0, 0]],
        ['ERROR d', [0, 0, 0, 1, 0]],
      ]),
    );
    const tally = await tallyText(text, { maxShapes: 2 });
    expect(tally.severities).toEqual([0, 0, 1, 3, 0]);
    expect(tally.shapes).toBeUndefined();
  });

  it('takes the line count a caller has made already (an encoding counts them as the store does)', async () => {
    const text = 'ERROR a\nINFO b\n';
    expect(await tallyText(text, { lines: 2 })).toEqual(naiveTally(text));
    expect((await tallyText(text, { lines: 5 })).lines).toBe(5);
  });

  it('past its time budget, still counts the lines but gives up the levels, so a caller states estimates', async () => {
    expect(await tallyText('ERROR a\n'.repeat(1000), { budgetMs: 0 })).toEqual({
      chars: 8000,
      lines: 1000,
      severities: undefined,
      shapes: undefined,
    });
  });

  it('tallies 60 MB without stalling the event loop, one long line included', async () => {
    const text = flatString(
      `${'2026-04-26T18:22:01Z INFO served in 12 ms\n'.repeat(1_000_000)}ERROR ${'a'.repeat(16_000_000)}\n`,
    );
    const probe = await probeEventLoop(() => tallyText(text, { budgetMs: 600_000 }));
    expect(probe.value.lines).toBe(1_000_001);
    expect(probe.value.severities?.[3]).toBe(1);
    expect(probe.worstBusyMs).toBeLessThan(TEST_STALL_BOUND_MS);
  }, 60_000);
});
