import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScratchpadError } from '../core/errors.js';
import { createScratchpad, type Scratchpad, type ScratchpadConfig } from '../service/scratchpad.js';
import type { StoreDriver } from '../stores/driver.js';
import { capsContract } from './contract-caps.js';
import { driverContract } from './contract-driver.js';
import { gcContract } from './contract-gc.js';
import type { ContractHarness } from './contract-harness.js';
import { leaseContract } from './contract-leases.js';
import { lifecycleContract } from './contract-lifecycle.js';
import { pagingContract } from './contract-paging.js';
import { searchContract } from './contract-search.js';
import { searchAnywhereContract } from './contract-search-anywhere.js';
import { validationContract } from './contract-validation.js';
import { writeGuessContract } from './contract-write-guesses.js';
import { expectCode } from './expect-code.js';

/** Options for {@link runStoreContract}. */
export interface StoreContractOptions {
  /** Shown in test names. */
  name: string;
  /**
   * A fresh, empty driver for each test. A driver that takes a clock should use `now`, the test's clock: how long
   * replaced or deleted content is kept for readers is measured on it (the `gc` cases move it forward).
   */
  createDriver: (context: { now: () => number }) => StoreDriver | Promise<StoreDriver>;
  /** For persistent backends: closes `driver` and opens the same store again. */
  reopen?: (driver: StoreDriver) => Promise<StoreDriver>;
  /** Test names (or prefixes) to skip, with a reason in the caller's comment. */
  skip?: string[];
}

const SMALL_CHUNK = 64;

/**
 * The one behavioural contract every {@link StoreDriver} must pass, run through the service (so slicing,
 * validation and lifecycle are checked end to end on the backend). Uses tiny chunks so multi-chunk paths are
 * always exercised, and property tests that compare every slice with the same slice of the original string.
 */
export function runStoreContract(options: StoreContractOptions): void {
  describe(`store contract: ${options.name}`, () => {
    let driver: StoreDriver;
    let clock = 1_700_000_000_000;
    const open = (config: Partial<ScratchpadConfig> = {}): Scratchpad =>
      createScratchpad({ driver, chunkSize: SMALL_CHUNK, now: () => clock, ...config });
    const test = (title: string, body: () => Promise<void>, timeout?: number): void => {
      const skipped = options.skip?.some((prefix) => title.startsWith(prefix));
      (skipped ? it.skip : it)(title, body, timeout);
    };
    const harness: ContractHarness = {
      open,
      test,
      tick: (ms) => {
        clock += ms;
      },
      now: () => clock,
      driver: () => driver,
      ...(options.reopen
        ? {
            reopen: async () => {
              driver = await (options.reopen as NonNullable<StoreContractOptions['reopen']>)(driver);
              return driver;
            },
          }
        : {}),
    };

    beforeEach(async () => {
      clock = 1_700_000_000_000;
      driver = await options.createDriver({ now: () => clock });
    });
    afterEach(async () => {
      await driver.close();
    });

    test('writes and reads text back with its facts', async () => {
      const pad = open();
      const content = 'héllo 🌍 wörld\nsecond line\r\nthird';
      const result = await pad.write('s1', 'greeting', content, {
        source: 'fs_read',
        turn: 't1',
        step: 2,
        metadata: { path: '/tmp/x' },
      });
      expect(result.created).toBe(true);
      const entry = result.entry;
      expect(entry.id).toMatch(/^[0-9a-f]{16}$/);
      expect(entry).toMatchObject({
        name: 'greeting',
        session: 's1',
        kind: 'text',
        bytes: Buffer.byteLength(content),
        chars: [...content].length,
        lines: 3,
        version: 1,
        pinned: false,
        expiresAt: null,
        source: 'fs_read',
        turn: 't1',
        step: 2,
        metadata: { path: '/tmp/x' },
        createdAt: clock,
        updatedAt: clock,
      });
      expect(entry.sha256).toBe(sha256(content));
      const read = await pad.read('s1', 'greeting');
      expect(read.content).toBe(content);
      expect(read.complete).toBe(true);
      expect(read.description).toBe(
        `chars 0–${[...content].length} of ${[...content].length}; lines 1–3 of 3`,
      );
      expect((await pad.read('s1', { id: entry.id })).content).toBe(content);
    });

    test('an empty entry has no lines', async () => {
      const pad = open();
      const { entry } = await pad.write('s1', 'empty', '');
      expect(entry).toMatchObject({ bytes: 0, chars: 0, lines: 0 });
      expect((await pad.read('s1', 'empty')).content).toBe('');
      expect((await pad.read('s1', 'empty', { type: 'head', count: 10 })).content).toBe('');
      await expectCode(pad.read('s1', 'empty', { type: 'lines', start: 1 }), 'SLICE_OUT_OF_RANGE');
    });

    test('rejects invalid names and session ids with the rule', async () => {
      const pad = open();
      for (const name of ['', '.hidden', '..', 'a/b', 'a\u0000b', 'x'.repeat(129), 'spa ce', 'ünï']) {
        const error = await expectCode(pad.write('s1', name, 'x'), 'INVALID_NAME');
        expect(error.message).toContain('[A-Za-z0-9._-]');
      }
      await expectCode(pad.write('../etc', 'ok', 'x'), 'INVALID_NAME');
      expect((await pad.write('s1', `a${'.'.repeat(127)}`, 'x')).created).toBe(true);
    });

    test('overwriting keeps the id, bumps the version and reports the previous state', async () => {
      const pad = open();
      const first = await pad.write('s1', 'plan', 'v1');
      clock += 1000;
      const second = await pad.write('s1', 'plan', 'version two');
      expect(second.created).toBe(false);
      expect(second.previous).toEqual({ version: 1, bytes: 2, chars: 2 });
      expect(second.entry).toMatchObject({
        id: first.entry.id,
        version: 2,
        createdAt: first.entry.createdAt,
        updatedAt: clock,
      });
      expect((await pad.read('s1', 'plan')).content).toBe('version two');
      expect((await pad.list('s1')).entries.length).toBe(1);
    });

    test('compare-and-set with ifVersion and create mode', async () => {
      const pad = open();
      await pad.write('s1', 'doc', 'a', { ifVersion: 0 });
      await expectCode(pad.write('s1', 'doc', 'b', { ifVersion: 0 }), 'VERSION_CONFLICT');
      await expectCode(pad.write('s1', 'doc', 'b', { mode: 'create' }), 'ENTRY_EXISTS');
      await pad.write('s1', 'doc', 'b', { ifVersion: 1 });
      const conflict = await expectCode(pad.write('s1', 'doc', 'c', { ifVersion: 1 }), 'VERSION_CONFLICT');
      expect(conflict.details).toMatchObject({ expected: 1, actual: 2 });
      expect((await pad.read('s1', 'doc')).content).toBe('b');
      await expectCode(pad.delete('s1', 'doc', { ifVersion: 1 }), 'VERSION_CONFLICT');
      await expectCode(
        pad.edit('s1', 'doc', { oldText: 'b', newText: 'x', ifVersion: 7 }),
        'VERSION_CONFLICT',
      );
    });

    test('concurrent compare-and-set writers: exactly one wins', async () => {
      const pad = open();
      await pad.write('s1', 'counter', '0');
      const attempts = await Promise.allSettled(
        Array.from({ length: 6 }, (_, index) =>
          pad.write('s1', 'counter', `writer ${index}`, { ifVersion: 1 }),
        ),
      );
      const won = attempts.filter((attempt) => attempt.status === 'fulfilled');
      expect(won.length).toBe(1);
      for (const attempt of attempts) {
        if (attempt.status === 'rejected')
          expect(ScratchpadError.hasCode(attempt.reason, 'VERSION_CONFLICT')).toBe(true);
      }
      expect((await pad.get('s1', 'counter')).version).toBe(2);
    });

    test('appends across chunk boundaries keep content, sizes and hash exact', async () => {
      const pad = open();
      let expected = '';
      for (let index = 0; index < 40; index++) {
        const piece = index % 3 === 0 ? `line ${index} ✓ 𝄞\n` : `part-${index}-`;
        expected += piece;
        await pad.write('s1', 'log', piece, { mode: 'append' });
      }
      const entry = await pad.get('s1', 'log');
      expect(entry).toMatchObject({
        bytes: Buffer.byteLength(expected),
        chars: [...expected].length,
        lines: lineTotal(expected),
        version: 40,
      });
      expect(entry.sha256).toBe(sha256(expected));
      expect((await pad.read('s1', 'log')).content).toBe(expected);
      expect((await pad.read('s1', 'log', { type: 'range', start: 100, end: 160 })).content).toBe(
        [...expected].slice(100, 160).join(''),
      );
      const big = `${'x'.repeat(1000)}\n${'y'.repeat(500)}`;
      await pad.write('s1', 'log', big, { mode: 'append' });
      expected += big;
      expect((await pad.read('s1', 'log')).content).toBe(expected);
      expect((await pad.read('s1', 'log', { type: 'lines', start: -2 })).content).toBe(
        expected.slice(expected.lastIndexOf('\n', expected.length - 502) + 1),
      );
      expect((await pad.get('s1', 'log')).sha256).toBe(sha256(expected));
    });

    test('append to a missing entry creates it', async () => {
      const pad = open();
      const result = await pad.write('s1', 'new', 'abc', { mode: 'append' });
      expect(result.created).toBe(true);
      expect((await pad.read('s1', 'new')).content).toBe('abc');
    });

    test('character slices: head, tail, range, offset', async () => {
      const pad = open();
      const content = Array.from({ length: 50 }, (_, index) => `ligne ${index} — ünïcödé 🎉`).join('\n');
      const chars = [...content];
      await pad.write('s1', 'doc', content);
      const slice = (start: number, end: number): string => chars.slice(start, end).join('');
      expect((await pad.read('s1', 'doc', { type: 'head', count: 100 })).content).toBe(slice(0, 100));
      expect((await pad.read('s1', 'doc', { type: 'tail', count: 77 })).content).toBe(
        slice(chars.length - 77, chars.length),
      );
      expect((await pad.read('s1', 'doc', { type: 'range', start: 333, end: 555 })).content).toBe(
        slice(333, 555),
      );
      expect((await pad.read('s1', 'doc', { type: 'offset', offset: 900, limit: 50 })).content).toBe(
        slice(900, 950),
      );
      expect((await pad.read('s1', 'doc', { type: 'head', count: 1_000_000 })).content).toBe(content);
      expect((await pad.read('s1', 'doc', { type: 'range', start: chars.length })).content).toBe('');
      const read = await pad.read('s1', 'doc', { type: 'range', start: 333, end: 555 });
      expect(read.location).toMatchObject({ unit: 'chars', start: 333, end: 555, total: chars.length });
      const before = slice(0, 333);
      expect(read.location.lines?.first).toBe(before.split('\n').length);
      expect(read.location.lines?.last).toBe(slice(0, 554).split('\n').length);
      const error = await expectCode(
        pad.read('s1', 'doc', { type: 'range', start: chars.length + 1, end: chars.length + 5 }),
        'SLICE_OUT_OF_RANGE',
      );
      expect(error.message).toContain(`${chars.length.toLocaleString('en-US')} chars`);
      await expectCode(pad.read('s1', 'doc', { type: 'range', start: 10, end: 5 }), 'INVALID_ARGUMENT');
      await expectCode(pad.read('s1', 'doc', { type: 'head', count: -1 }), 'INVALID_ARGUMENT');
      await expectCode(pad.read('s1', 'doc', { type: 'offset', offset: 1.5, limit: 3 }), 'INVALID_ARGUMENT');
    });

    test('line slices: 1-based, inclusive, negative from the end, CR kept', async () => {
      const pad = open();
      const content = 'one\r\ntwo\nthree\n\nfive';
      await pad.write('s1', 'doc', content);
      expect((await pad.get('s1', 'doc')).lines).toBe(5);
      expect((await pad.read('s1', 'doc', { type: 'lines', start: 1, end: 1 })).content).toBe('one\r\n');
      expect((await pad.read('s1', 'doc', { type: 'lines', start: 2, end: 3 })).content).toBe('two\nthree\n');
      expect((await pad.read('s1', 'doc', { type: 'lines', start: -1 })).content).toBe('five');
      expect((await pad.read('s1', 'doc', { type: 'lines', start: -2, end: -1 })).content).toBe('\nfive');
      expect((await pad.read('s1', 'doc', { type: 'lines', start: 4, end: 99 })).content).toBe('\nfive');
      const read = await pad.read('s1', 'doc', { type: 'lines', start: 2, end: 3 });
      expect(read.description).toBe('chars 5–15 of 20; lines 2–3 of 5');
      await expectCode(pad.read('s1', 'doc', { type: 'lines', start: 6 }), 'SLICE_OUT_OF_RANGE');
      await expectCode(pad.read('s1', 'doc', { type: 'lines', start: 0 }), 'INVALID_ARGUMENT');
      await expectCode(pad.read('s1', 'doc', { type: 'lines', start: 3, end: 2 }), 'INVALID_ARGUMENT');
      await pad.write('s1', 'trailing', 'a\nb\n');
      expect((await pad.get('s1', 'trailing')).lines).toBe(2);
      expect((await pad.read('s1', 'trailing', { type: 'lines', start: 2 })).content).toBe('b\n');
    });

    test('binary entries slice by bytes as base64 or hex', async () => {
      const pad = open();
      const bytes = Uint8Array.from({ length: 300 }, (_, index) => (index * 37 + 200) % 256);
      const { entry } = await pad.write('s1', 'blob', bytes);
      expect(entry).toMatchObject({
        kind: 'binary',
        bytes: 300,
        chars: 0,
        lines: 0,
        mediaType: 'application/octet-stream',
      });
      expect(entry.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      const full = await pad.read('s1', 'blob');
      expect(full.encoding).toBe('base64');
      expect(Buffer.from(full.content, 'base64')).toEqual(Buffer.from(bytes));
      const range = await pad.read('s1', 'blob', { type: 'range', start: 70, end: 130 }, { encoding: 'hex' });
      expect(range.content).toBe(Buffer.from(bytes.subarray(70, 130)).toString('hex'));
      expect(range.description).toBe('bytes 70–130 of 300');
      const tail = await pad.read('s1', 'blob', { type: 'tail', count: 5 });
      expect(Buffer.from(tail.content, 'base64')).toEqual(Buffer.from(bytes.subarray(295)));
      await expectCode(pad.read('s1', 'blob', { type: 'lines', start: 1 }), 'NOT_TEXT');
      await expectCode(pad.grep('s1', 'blob', { pattern: 'x' }), 'NOT_TEXT');
      await expectCode(pad.write('s1', 'bad', bytes, { kind: 'text' }), 'NOT_TEXT');
      expect((await pad.write('s1', 'utf8bytes', Buffer.from('plain text'))).entry.kind).toBe('text');
    });

    test('grep finds lines with numbers, context and limits', async () => {
      const pad = open();
      const lines = Array.from({ length: 120 }, (_, index) =>
        index % 17 === 5 ? `ERROR code=${index} ✗` : `info ${index}`,
      );
      await pad.write('s1', 'log', lines.join('\n'));
      const result = await pad.grep('s1', 'log', { pattern: 'ERROR code=\\d+' });
      const expectedLines = lines.flatMap((line, index) => (line.startsWith('ERROR') ? [index + 1] : []));
      expect(result.matches.map((match) => match.line)).toEqual(expectedLines);
      expect(result.total).toBe(expectedLines.length);
      expect(result.complete).toBe(true);
      expect(result.matches[0]?.text).toBe('ERROR code=5 ✗');
      const charOfFirst = [...lines.slice(0, 5).join('\n')].length + 1;
      expect(result.matches[0]?.char).toBe(charOfFirst);
      const limited = await pad.grep('s1', 'log', { pattern: 'error', ignoreCase: true, maxMatches: 2 });
      expect(limited.matches.length).toBe(2);
      expect(limited.total).toBe(expectedLines.length);
      expect(limited.description).toContain('showing the first 2');
      const withContext = await pad.grep('s1', 'log', { pattern: '^ERROR code=(22|39)\\b', context: 2 });
      expect(withContext.blocks?.map((block) => block.lines.map((line) => line.line))).toEqual([
        [21, 22, 23, 24, 25],
        [38, 39, 40, 41, 42],
      ]);
      expect(withContext.blocks?.[0]?.lines.find((line) => line.match)?.text).toBe('ERROR code=22 ✗');
      expect((await pad.grep('s1', 'log', { pattern: 'nothing-like-this' })).total).toBe(0);
      // `$` matches every line, the last one (no trailing newline) included.
      expect((await pad.grep('s1', 'log', { pattern: '$', maxMatches: 1000 })).total).toBe(lines.length);
      expect((await pad.grep('s1', 'log', { pattern: '✗$' })).total).toBe(expectedLines.length);
      await expectCode(pad.grep('s1', 'log', { pattern: '(unclosed' }), 'INVALID_REGEX');
      const lookahead = await expectCode(pad.grep('s1', 'log', { pattern: 'ERROR(?=x)' }), 'INVALID_REGEX');
      expect(lookahead.hint).toContain('lookahead');
    });

    test('property: grep finds the lines, lines numbers and offsets a line-by-line RE2 finds', async () => {
      const pad = open();
      const atom = fc.constantFrom(
        'a',
        'b',
        'ab',
        'é',
        '🌍',
        'x',
        ' ',
        '.',
        '\\d',
        '[ab]',
        '\\w',
        '^',
        '$',
        '\\b',
      );
      const piece = fc
        .tuple(atom, fc.constantFrom('', '', '', '?', '*', '+', '{2}'))
        .map(([a, q]) => (/^[\^$]|\\b$/.test(a) ? a : a + q));
      const branch = fc.array(piece, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(''));
      const patterns = fc.array(branch, { minLength: 1, maxLength: 3 }).map((branches) => branches.join('|'));
      const texts = fc
        .array(fc.stringMatching(/^[abx 0-9é🌍]{0,40}$/u), { minLength: 1, maxLength: 12 })
        .map((lines) => lines.join('\n'))
        .filter((text) => text.length > 0);
      let round = 0;
      await fc.assert(
        fc.asyncProperty(patterns, texts, fc.boolean(), async (pattern, text, ignoreCase) => {
          const name = `g${round++}`;
          await pad.write('s1', name, text);
          const result = await pad.grep('s1', name, {
            pattern,
            ignoreCase,
            maxMatches: 1000,
            maxLineChars: 1000,
          });
          const regex = new RegExp(pattern, ignoreCase ? 'iu' : 'u');
          // A final newline ends the last line; it does not start another.
          const lines = text.split('\n').slice(0, text.endsWith('\n') ? -1 : undefined);
          let before = 0;
          const expected: { line: number; char: number; text: string }[] = [];
          lines.forEach((line, index) => {
            const match = regex.exec(line);
            if (match)
              expected.push({
                line: index + 1,
                char: before + [...line.slice(0, match.index)].length,
                text: line,
              });
            before += [...line].length + 1;
          });
          expect(result.matches.map(({ line, char, text }) => ({ line, char, text }))).toEqual(expected);
          expect(result.total).toBe(expected.length);
        }),
        { numRuns: 150 },
      );
    });

    test('grep survives pathological patterns in bounded time', async () => {
      const pad = open();
      await pad.write('s1', 'evil', `${'a'.repeat(5000)}!`);
      const started = Date.now();
      const result = await pad.grep('s1', 'evil', { pattern: '^(a+)+$' });
      expect(result.total).toBe(0);
      expect(Date.now() - started).toBeLessThan(5000);
    });

    test('grep clips very long lines around the match', async () => {
      const pad = open();
      await pad.write('s1', 'minified', `${'x'.repeat(5000)}NEEDLE${'y'.repeat(5000)}\nshort NEEDLE`);
      const result = await pad.grep('s1', 'minified', { pattern: 'NEEDLE', maxLineChars: 100 });
      expect(result.matches[0]).toMatchObject({ line: 1, char: 5000, clipped: true });
      expect(result.matches[0]?.text).toContain('NEEDLE');
      expect([...(result.matches[0]?.text ?? '')].length).toBeLessThanOrEqual(102);
      expect(result.matches[1]).toMatchObject({ line: 2, text: 'short NEEDLE', clipped: false });
    });

    test('edit replaces exactly, refuses ambiguity and missing text', async () => {
      const pad = open();
      await pad.write('s1', 'notes', 'alpha beta\ngamma beta\ndelta', { ttlMs: 60_000, pinned: true });
      await expectCode(pad.edit('s1', 'notes', { oldText: 'beta', newText: 'B' }), 'EDIT_AMBIGUOUS');
      await expectCode(pad.edit('s1', 'notes', { oldText: 'omega', newText: 'O' }), 'EDIT_NO_MATCH');
      const single = await pad.edit('s1', 'notes', { oldText: 'delta', newText: 'DELTA' });
      expect(single).toMatchObject({ replacements: 1, lines: [3] });
      expect(single.entry.pinned).toBe(true);
      expect(single.entry.expiresAt).toBe(clock + 60_000);
      const all = await pad.edit('s1', 'notes', { oldText: 'beta', newText: 'β', replaceAll: true });
      expect(all).toMatchObject({ replacements: 2, lines: [1, 2] });
      expect((await pad.read('s1', 'notes')).content).toBe('alpha β\ngamma β\nDELTA');
      expect(all.entry.sha256).toBe(sha256('alpha β\ngamma β\nDELTA'));
    });

    test('update changes pin, TTL and metadata only', async () => {
      const pad = open();
      const { entry } = await pad.write('s1', 'doc', 'content');
      const updated = await pad.update('s1', 'doc', { pinned: true, metadata: { tag: 'x' }, ttlMs: 5000 });
      expect(updated).toMatchObject({
        pinned: true,
        metadata: { tag: 'x' },
        expiresAt: clock + 5000,
        version: 2,
        sha256: entry.sha256,
      });
      expect((await pad.read('s1', 'doc')).content).toBe('content');
    });

    test('missing entries name what exists', async () => {
      const pad = open();
      await pad.write('s1', 'alpha', 'a');
      await pad.write('s1', 'beta', 'b');
      const error = await expectCode(pad.read('s1', 'gamma'), 'ENTRY_NOT_FOUND');
      expect(error.hint).toContain('alpha, beta');
      await expectCode(pad.read('s1', { id: '0123456789abcdef' }), 'ENTRY_NOT_FOUND');
      await expectCode(pad.read('s1', { id: 'nope' }), 'INVALID_ARGUMENT');
      const { entry } = await pad.write('s2', 'other', 'x');
      await expectCode(pad.read('s1', { id: entry.id }), 'ENTRY_NOT_FOUND');
    });

    test('delete removes the entry and its content', async () => {
      const pad = open();
      await pad.write('s1', 'doc', 'x'.repeat(1000));
      const deleted = await pad.delete('s1', 'doc');
      expect(deleted.name).toBe('doc');
      await expectCode(pad.read('s1', 'doc'), 'ENTRY_NOT_FOUND');
      await expectCode(pad.delete('s1', 'doc'), 'ENTRY_NOT_FOUND');
      expect((await pad.stats()).bytes).toBe(0);
    });

    test('sessions are isolated, listed with stats, and deleted with everything in them', async () => {
      const pad = open();
      await pad.write('s1', 'same', 'one');
      await pad.write('s2', 'same', 'two two');
      await pad.write('s2', 'more', 'x');
      expect((await pad.read('s1', 'same')).content).toBe('one');
      expect((await pad.read('s2', 'same')).content).toBe('two two');
      const sessions = await pad.sessions();
      expect(sessions.map((session) => [session.id, session.entries, session.bytes])).toEqual([
        ['s1', 1, 3],
        ['s2', 2, 8],
      ]);
      expect(await pad.deleteSession('s2')).toEqual({ entries: 2, bytes: 8 });
      await expectCode(pad.read('s2', 'same'), 'ENTRY_NOT_FOUND');
      await expectCode(pad.deleteSession('s2'), 'SESSION_NOT_FOUND');
      await expectCode(pad.sessionInfo('nope'), 'SESSION_NOT_FOUND');
      expect(await pad.stats()).toMatchObject({ sessions: 1, entries: 1, bytes: 3 });
    });

    test('list orders by name, filters by prefix and turn', async () => {
      const pad = open();
      await pad.write('s1', 'b-2', 'x', { turn: 't1' });
      clock += 1;
      await pad.write('s1', 'a-1', 'x', { turn: 't2' });
      clock += 1;
      await pad.write('s1', 'b-1', 'x', { turn: 't1' });
      expect((await pad.list('s1')).entries.map((entry) => entry.name)).toEqual(['a-1', 'b-1', 'b-2']);
      expect((await pad.list('s1', { prefix: 'b-' })).entries.map((entry) => entry.name)).toEqual([
        'b-1',
        'b-2',
      ]);
      expect((await pad.listForTurn('s1', 't1')).map((entry) => entry.name)).toEqual(['b-2', 'b-1']);
      expect(
        (await pad.list('s1', { orderBy: 'createdAt', limit: 2 })).entries.map((entry) => entry.name),
      ).toEqual(['b-2', 'a-1']);
    });

    test('TTL hides expired entries and gc frees them, sparing pinned ones', async () => {
      const pad = open({ defaultTtlMs: 3_600_000 });
      await pad.write('s1', 'short', 'short-lived', { ttlMs: 1000 });
      await pad.write('s1', 'default', 'an hour');
      await pad.write('s1', 'forever', 'kept', { ttlMs: null });
      await pad.write('s1', 'pinned', 'pinned', { ttlMs: 1000, pinned: true });
      clock += 2000;
      const expired = await expectCode(pad.read('s1', 'short'), 'ENTRY_NOT_FOUND');
      expect(expired.message).toContain('expired');
      expect((await pad.list('s1')).entries.map((entry) => entry.name)).toEqual([
        'default',
        'forever',
        'pinned',
      ]);
      const gc = await pad.gc();
      expect(gc.removed.map((item) => [item.name, item.reason])).toEqual([['short', 'expired']]);
      expect(gc.bytes).toBe(11);
      clock += 3_600_000;
      expect((await pad.gc()).removed.map((item) => item.name)).toEqual(['default']);
      expect((await pad.list('s1')).entries.map((entry) => entry.name)).toEqual(['forever', 'pinned']);
      expect((await pad.stats()).entries).toBe(2);
    });

    test('streams a slice as bytes', async () => {
      const pad = open();
      const content = 'abc😀def\n'.repeat(100);
      await pad.write('s1', 'doc', content);
      const { pieces, location } = await pad.stream('s1', 'doc', { type: 'range', start: 10, end: 500 });
      const parts: Buffer[] = [];
      for await (const piece of pieces) parts.push(Buffer.from(piece));
      expect(Buffer.concat(parts).toString('utf8')).toBe([...content].slice(10, 500).join(''));
      expect(location).toMatchObject({ start: 10, end: 500 });
    });

    test('writes streams and async iterables chunk by chunk', async () => {
      const pad = open();
      async function* pieces(): AsyncGenerator<string | Uint8Array> {
        yield 'first ';
        yield Buffer.from('😀'.slice(0, 1) === '\ud83d' ? '😀' : '?');
        yield new TextEncoder().encode(' second\n');
        yield 'x'.repeat(500);
      }
      const { entry } = await pad.write('s1', 'stream', pieces());
      const expected = `first 😀 second\n${'x'.repeat(500)}`;
      expect(entry).toMatchObject({ kind: 'text', chars: [...expected].length });
      expect((await pad.read('s1', 'stream')).content).toBe(expected);
      const web = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array([0xf0, 0x9f]));
          controller.enqueue(new Uint8Array([0x98, 0x80, 0x0a]));
          controller.close();
        },
      });
      expect((await pad.read('s1', (await pad.write('s1', 'web', web)).entry.name)).content).toBe('😀\n');
      await expectCode(pad.write('s1', 'obj', { not: 'content' } as never), 'INVALID_ARGUMENT');
    });

    test('a failed streaming write leaves no trace', async () => {
      const pad = open();
      await pad.write('s1', 'keep', 'old content');
      async function* failing(): AsyncGenerator<string> {
        yield 'x'.repeat(300);
        throw new Error('source broke');
      }
      await expect(pad.write('s1', 'keep', failing())).rejects.toThrow('source broke');
      expect((await pad.read('s1', 'keep')).content).toBe('old content');
      expect((await pad.get('s1', 'keep')).version).toBe(1);
      expect((await pad.stats()).bytes).toBe(11);
    });

    lifecycleContract(harness);
    leaseContract(harness);
    validationContract(harness);
    pagingContract(harness);
    searchContract(harness);
    searchAnywhereContract(harness);
    capsContract(harness);
    driverContract(harness);
    gcContract(harness);
    writeGuessContract(harness);

    if (options.reopen) {
      const reopen = options.reopen;
      test('persists across reopen', async () => {
        const pad = open();
        const content = 'persist me 🌍\n'.repeat(30);
        const { entry } = await pad.write('s1', 'durable', content, {
          metadata: { a: [1, 2] },
          pinned: true,
        });
        await pad.write('s1', 'durable', 'more\n', { mode: 'append' });
        driver = await reopen(driver);
        const again = open();
        expect((await again.read('s1', 'durable')).content).toBe(`${content}more\n`);
        expect(await again.get('s1', 'durable')).toMatchObject({
          id: entry.id,
          version: 2,
          pinned: true,
          metadata: { a: [1, 2] },
        });
        expect((await again.grep('s1', 'durable', { pattern: 'more' })).matches[0]?.line).toBe(31);
      });
    }

    test('property: any character slice equals the same slice of the original', async () => {
      await fc.assert(
        fc.asyncProperty(
          unicodeText(),
          fc.integer({ min: 16, max: 80 }),
          fc.nat(),
          fc.nat(),
          async (text, chunkSize, a, b) => {
            const pad = open({ chunkSize });
            const chars = [...text];
            await pad.write('prop', 'entry', text);
            const start = chars.length === 0 ? 0 : a % (chars.length + 1);
            const end = start + (chars.length === 0 ? 0 : b % (chars.length - start + 1));
            const read = await pad.read('prop', 'entry', { type: 'range', start, end });
            expect(read.content).toBe(chars.slice(start, end).join(''));
            const head = await pad.read('prop', 'entry', { type: 'head', count: end });
            expect(head.content).toBe(chars.slice(0, end).join(''));
            const tail = await pad.read('prop', 'entry', { type: 'tail', count: end });
            expect(tail.content).toBe(chars.slice(Math.max(0, chars.length - end)).join(''));
            expect((await pad.read('prop', 'entry')).content).toBe(text);
          },
        ),
        { numRuns: 60 },
      );
    }, 60_000);

    test('property: line slices and grep agree with splitting on \\n', async () => {
      await fc.assert(
        fc.asyncProperty(
          unicodeText(),
          fc.integer({ min: 16, max: 80 }),
          fc.nat(),
          fc.nat(),
          async (text, chunkSize, a, b) => {
            const pad = open({ chunkSize });
            await pad.write('prop', 'lines', text);
            const pieces = text.split('\n');
            const lines = text === '' ? [] : text.endsWith('\n') ? pieces.slice(0, -1) : pieces;
            const entry = await pad.get('prop', 'lines');
            expect(entry.lines).toBe(lines.length);
            if (lines.length === 0) return;
            const first = 1 + (a % lines.length);
            const last = first + (b % (lines.length - first + 1));
            const expected = lines
              .slice(first - 1, last)
              .map((line, index) =>
                first + index < lines.length || text.endsWith('\n') ? `${line}\n` : line,
              )
              .join('');
            expect(
              (await pad.read('prop', 'lines', { type: 'lines', start: first, end: last })).content,
            ).toBe(expected);
            const grep = await pad.grep('prop', 'lines', { pattern: '.', maxMatches: 100_000 });
            expect(grep.matches.map((match) => match.line)).toEqual(
              lines.flatMap((line, index) => (line.length > 0 ? [index + 1] : [])),
            );
          },
        ),
        { numRuns: 60 },
      );
    }, 60_000);
  });
}

/** Random text with astral characters, CRLF, lone newlines, empty strings and no trailing newline. */
function unicodeText(): fc.Arbitrary<string> {
  const piece = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.constantFrom('\n', '\r\n', '\r', '😀', '𝄞', 'é', 'ascii ', '\u0000', '中文'),
    fc.string({ maxLength: 30 }),
  );
  return fc.array(piece, { maxLength: 40 }).map((pieces) =>
    pieces.join('').replace(/[\ud800-\udfff]/g, (surrogate, index: number, whole: string) => {
      // Keep only well-formed pairs: a lone surrogate cannot round-trip through UTF-8.
      const code = surrogate.charCodeAt(0);
      const next = whole.charCodeAt(index + 1);
      const previous = whole.charCodeAt(index - 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) return surrogate;
      if (code >= 0xdc00 && previous >= 0xd800 && previous <= 0xdbff) return surrogate;
      return '?';
    }),
  );
}

function lineTotal(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
