import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeEventLoop, TEST_STALL_BOUND_MS } from '../../../test/support/event-loop-probe.js';
import { GREP_LOG_PIECE_LINES, grepLogPieces } from '../../../test/support/stall-logs.js';
import { ScratchpadError } from '../../core/errors.js';
import { createSqliteDriver } from '../../stores/sqlite/index.js';
import { createScratchpad, type Scratchpad } from '../scratchpad.js';

/** `bytes` of pseudo-random lowercase letters: one line, about 1 in 26 an `a`. */
function letters(bytes: number, seed: number): Buffer {
  const out = Buffer.allocUnsafe(bytes);
  let state = seed;
  for (let index = 0; index < bytes; index++) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    out[index] = 97 + ((state >> 8) % 26);
  }
  return out;
}

let directory: string;
let pad: Scratchpad;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'grep-stall-'));
  pad = createScratchpad({ driver: createSqliteDriver({ path: join(directory, 'store.db') }) });
  // One 16 MB line (side files, 256 KiB chunks), and 16 MB of 1 MB lines.
  await pad.write('s', 'one-line', letters(16 * 1024 * 1024, 7));
  const lines: Buffer[] = [];
  for (let line = 0; line < 16; line++) lines.push(letters(1024 * 1024 - 1, line), Buffer.from('\n'));
  await pad.write('s', 'long-lines', Buffer.concat(lines));
  // 8 MB of two-byte lines that all match: 4 M lines to count.
  await pad.write('s', 'short-lines', Buffer.from('x\n'.repeat(4 * 1024 * 1024)));
  // 54 MiB of log lines (side files, compressed), streamed in.
  await pad.write('s', 'log', grepLogPieces(LOG_PIECES));
}, 120_000);

/** Pieces of the 54 MiB log. */
const LOG_PIECES = 64;

afterAll(async () => {
  await pad.close();
  await rm(directory, { recursive: true, force: true });
});

describe('grep on hostile inputs', () => {
  it('a pathological pattern on a 16 MB line stops at its bound without stalling the event loop', async () => {
    const probe = await probeEventLoop(async () => {
      try {
        await pad.grep('s', 'one-line', { pattern: '(.*a){25}', timeoutMs: 1000 });
        return undefined;
      } catch (error) {
        return error;
      }
    });
    expect(probe.value).toBeInstanceOf(ScratchpadError);
    expect((probe.value as ScratchpadError).code).toBe('REGEX_TIMEOUT');
    console.log('WORST', probe.worstDelayMs, probe.durationMs);
    expect(probe.worstBusyMs).toBeLessThan(TEST_STALL_BOUND_MS);
  }, 60_000);

  it('a pathological pattern on 1 MB lines stops at its bound without stalling the event loop', async () => {
    const probe = await probeEventLoop(() =>
      pad.grep('s', 'long-lines', { pattern: '(.*a){25}', timeoutMs: 1000 }).catch((error: unknown) => error),
    );
    expect((probe.value as ScratchpadError).code).toBe('REGEX_TIMEOUT');
    console.log('WORST', probe.worstDelayMs, probe.durationMs);
    expect(probe.worstBusyMs).toBeLessThan(TEST_STALL_BOUND_MS);
  }, 60_000);

  it('counting 4 M matching lines keeps the event loop free and finds them all', async () => {
    const probe = await probeEventLoop(() =>
      pad.grep('s', 'short-lines', { pattern: 'x', maxMatches: 3, timeoutMs: 600_000 }),
    );
    expect(probe.value.total).toBe(4 * 1024 * 1024);
    expect(probe.value.matches.map((match) => match.line)).toEqual([1, 2, 3]);
    console.log('WORST', probe.worstDelayMs, probe.durationMs);
    expect(probe.worstBusyMs).toBeLessThan(TEST_STALL_BOUND_MS);
  }, 120_000);

  it('greps 54 MiB of log for a literal, an alternation and -i without stalling the event loop', async () => {
    const lines = LOG_PIECES * GREP_LOG_PIECE_LINES;
    // Lines i < lines with i % every === rest.
    const count = (every: number, rest: number): number => Math.ceil((lines - rest) / every);
    const cases = [
      { pattern: 'ERROR', ignoreCase: false, total: count(25, 0) },
      { pattern: 'timeout|declined', ignoreCase: false, total: count(40, 0) + count(40, 1) },
      { pattern: 'error', ignoreCase: true, total: count(25, 0) + count(25, 1) },
    ];
    for (const { pattern, ignoreCase, total } of cases) {
      const probe = await probeEventLoop(() => pad.grep('s', 'log', { pattern, ignoreCase, maxMatches: 3 }));
      expect(probe.value.total, pattern).toBe(total);
      expect(probe.value.matches.map((match) => match.line)).toEqual(
        pattern === 'ERROR' ? [1, 26, 51] : pattern === 'error' ? [1, 2, 26] : [1, 2, 41],
      );
      console.log('WORST', pattern, probe.worstDelayMs, probe.worstBusyMs, probe.durationMs);
      expect(probe.worstBusyMs).toBeLessThan(TEST_STALL_BOUND_MS);
    }
  }, 120_000);

  it('greps again after a timeout terminated its worker, and several greps run at once', async () => {
    await expect(pad.grep('s', 'one-line', { pattern: '(.*a){25}', timeoutMs: 50 })).rejects.toMatchObject({
      code: 'REGEX_TIMEOUT',
    });
    const results = await Promise.all(
      ['x', 'x$', '^x'].map((pattern) =>
        pad.grep('s', 'short-lines', { pattern, stopAtMax: true, maxMatches: 2 }),
      ),
    );
    // A stopped scan counts the line past maxMatches that stopped it.
    for (const result of results) expect(result).toMatchObject({ total: 3, complete: false });
  }, 120_000);
});
