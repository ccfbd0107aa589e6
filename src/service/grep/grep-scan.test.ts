import { mkdtemp, readdir, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChunkCompression } from '../../stores/chunk-codec.js';
import { createFsDriver } from '../../stores/fs/index.js';
import { createSqliteDriver } from '../../stores/sqlite/index.js';
import { createScratchpad, type Scratchpad } from '../scratchpad.js';
import { grepBatchChunks } from './grep-scanner.js';
import { grepThreads } from './grep-thread.js';

let directory: string;
let round = 0;
const pads: Scratchpad[] = [];

const threadsPerGrep = grepThreads.threadsPerGrep;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'grep-scan-'));
  // Two threads per large grep whatever the machine, so the halves and their joins are tested.
  grepThreads.threadsPerGrep = 2;
});

afterAll(async () => {
  grepThreads.threadsPerGrep = threadsPerGrep;
  for (const pad of pads) await pad.close();
  await rm(directory, { recursive: true, force: true });
});

/** What a line-by-line search finds: every matching line, its number, the char offset of its first match. */
function reference(text: string, pattern: string, ignoreCase: boolean) {
  const regex = new RegExp(pattern, ignoreCase ? 'iu' : 'u');
  const lines = text.split('\n').slice(0, text.endsWith('\n') ? -1 : undefined);
  let before = 0;
  const found: { line: number; char: number; text: string }[] = [];
  lines.forEach((line, index) => {
    const match = regex.exec(line);
    if (match)
      found.push({ line: index + 1, char: before + [...line.slice(0, match.index)].length, text: line });
    before += [...line].length + 1;
  });
  return found;
}

// With the Kelvin sign and the long s, which a case-insensitive k and s also match (RE2 and JavaScript alike).
const words = [
  'ERROR',
  'error',
  'Error',
  'timeout',
  'declined',
  'é',
  '🌍',
  'x',
  'ab',
  ' ',
  'ß',
  'ERRÖR',
  'K',
  'ſ',
  'É',
  // ASCII bytes one bit (0x20) away from each other, only letters among them folded ignoring case.
  '@',
  '`',
  '[',
  '{',
];
const texts = fc
  .array(fc.constantFrom(...words, '\n', '\n', 'zz', 'ü', 'y'.repeat(60)), {
    minLength: 1,
    maxLength: 400,
    size: 'max',
  })
  .map((parts) => parts.join(''));
const patterns = fc.constantFrom(
  ['ERROR', false],
  ['error', true],
  ['timeout|declined', false],
  ['timeout|declined', true],
  ['error|🌍', true],
  ['é|ERROR', false],
  ['x$', false],
  ['^ab', false],
  ['ERR.R', true],
  ['(time|decl)', false],
  ['ß', true],
  ['e', false],
  ['k', true],
  ['S|é', true],
  ['ERR', true],
  ['err(or)?', true],
  ['x@', true],
  ['\\{ab|\\[', true],
  ['ab`', true],
);

/**
 * Greps `text` for `ERROR` in a SQLite store (side files) and an fs store, both chunked by `chunkSize`, and expects
 * what a line-by-line search finds; returns that.
 */
async function grepsLikeReference(
  text: string,
  options: { chunkSize: number; maxMatches: number; maxLineChars: number },
): Promise<ReturnType<typeof reference>> {
  const expected = reference(text, 'ERROR', false);
  for (const root of ['store.db', 'store-fs']) {
    const path = join(directory, `${round++}-${root}`);
    const driver = root.endsWith('.db')
      ? createSqliteDriver({ path, inlineBytes: 0 })
      : createFsDriver({ root: path });
    const pad = createScratchpad({ driver, chunkSize: options.chunkSize });
    pads.push(pad);
    await pad.write('s', 'text', text);
    const { maxMatches, maxLineChars } = options;
    const result = await pad.grep('s', 'text', { pattern: 'ERROR', maxMatches, maxLineChars });
    expect(result.matches.map(({ line, char, text }) => ({ line, char, text }))).toEqual(expected);
    expect(result).toMatchObject({ total: expected.length, complete: true });
  }
  return expected;
}

describe('grep across chunk boundaries', () => {
  // Tiny chunks, in SQLite side files or fs content files (read by the worker) or inline (sent to it), compressed
  // or not (decompressed by the worker), put lines across many chunks.
  it('property: finds what a line-by-line search finds, on any chunking and limit', async () => {
    await fc.assert(
      fc.asyncProperty(
        texts,
        patterns,
        fc.constantFrom(16, 17, 23, 64, 256),
        fc.constantFrom('none', 'brotli', 'gzip', 'fs') as fc.Arbitrary<ChunkCompression | 'fs'>,
        fc.constantFrom(0, 40, Number.POSITIVE_INFINITY),
        fc.integer({ min: 1, max: 30 }),
        fc.boolean(),
        async (text, [pattern, ignoreCase], chunkSize, compression, inlineBytes, maxMatches, stopAtMax) => {
          const path = join(directory, `store-${round++}`);
          const pad = createScratchpad({
            driver:
              compression === 'fs'
                ? createFsDriver({ root: path })
                : createSqliteDriver({ path: `${path}.db`, inlineBytes, compression }),
            chunkSize,
          });
          pads.push(pad);
          await pad.write('s', 'text', text);
          const result = await pad.grep('s', 'text', {
            pattern,
            ignoreCase,
            maxMatches,
            stopAtMax,
            maxLineChars: 100_000,
          });
          const expected = reference(text, pattern, ignoreCase);
          expect(result.matches.map(({ line, char, text }) => ({ line, char, text }))).toEqual(
            expected.slice(0, maxMatches),
          );
          if (!stopAtMax || expected.length <= maxMatches) {
            expect(result.total).toBe(expected.length);
            expect(result.complete).toBe(true);
          } else {
            // A stopped scan counts the line past maxMatches that stopped it.
            expect(result).toMatchObject({ total: maxMatches + 1, complete: false });
          }
          await pad.close();
          pads.pop();
        },
      ),
      { numRuns: 100 },
    );
  }, 120_000);

  // About 200 chunks of 16 bytes: two threads scan them, their halves meet at chunk 112 (7 batches of 16).
  it.each([
    ['every chunk starts a line', 'ERROR 123456789\n'.repeat(200), 200],
    [
      'a line runs over the halves',
      `${'x'.repeat(112 * 16 - 3)}\nERROR over the split ERROR\n${'z\n'.repeat(690)}`,
      1,
    ],
    ['one line, no newline', `${'y'.repeat(3000)}ERROR`, 1],
    ['the line after the split matches', `${'a\n'.repeat(896)}ERROR\n${'b\n'.repeat(697)}`, 1],
  ])('reports each line once where two threads meet: %s', async (_, text, lines) => {
    const expected = await grepsLikeReference(text, {
      chunkSize: 16,
      maxMatches: 1000,
      maxLineChars: 100_000,
    });
    expect(expected).toHaveLength(lines);
  });

  // PostgreSQL's 64 KiB chunks come 64 to a batch (4 MiB): lines across batches and across the two halves.
  it('scans chunks of 64 KiB in batches of 64, lines across batches and halves reported once', async () => {
    expect([grepBatchChunks(0, 0), grepBatchChunks(1000, 100), grepBatchChunks(64 << 20, 256)]).toEqual([
      16, 16, 16,
    ]);
    expect([
      grepBatchChunks(64 << 20, 1024),
      grepBatchChunks(64 << 20, 4096),
      grepBatchChunks(1 << 30, 65536),
    ]).toEqual([64, 256, 256]);
    const line = (index: number) =>
      index % 997 === 0
        ? `ERROR at ${index} ${'e'.repeat(index % 300)}\n`
        : `ok ${index} ${'.'.repeat(index % 120)}\n`;
    const parts: string[] = [];
    let bytes = 0;
    for (let index = 0; bytes < 20 * 1024 * 1024; index++) {
      const text = line(index);
      parts.push(text);
      bytes += text.length;
    }
    // A long matching line over the first batch boundary (4 MiB).
    const text = parts.join('').replace(/\n[^\n]*$/, `\nERROR ${'w'.repeat(200_000)} ERROR\n`);
    const boundary = 4 * 1024 * 1024;
    const withLongLine = `${text.slice(0, boundary - 100_000)}ERROR ${'v'.repeat(200_000)}\n${text.slice(boundary - 100_000)}`;
    const expected = await grepsLikeReference(withLongLine, {
      chunkSize: 64 * 1024,
      maxMatches: 100_000,
      maxLineChars: 400_000,
    });
    expect(expected.length).toBeGreaterThan(100);
  }, 60_000);

  it('reports a side file deleted under it as a damaged store', async () => {
    const path = join(directory, 'lost.db');
    const driver = createSqliteDriver({ path, inlineBytes: 0 });
    const pad = createScratchpad({ driver, chunkSize: 1024 });
    pads.push(pad);
    await pad.write('s', 'log', 'ERROR one\n'.repeat(10_000));
    const blobs = `${path}.blobs`;
    for (const name of await readdir(blobs)) await unlink(join(blobs, name));
    await expect(pad.grep('s', 'log', { pattern: 'ERROR' })).rejects.toMatchObject({ code: 'STORE_CORRUPT' });
  });

  it('reports an fs content file deleted under it as a damaged store', async () => {
    const root = join(directory, 'lost-fs');
    const pad = createScratchpad({ driver: createFsDriver({ root }), chunkSize: 1024 });
    pads.push(pad);
    await pad.write('s', 'log', 'ERROR one\n'.repeat(10_000));
    const content = join(root, 's', '.scratchpad', 'content');
    for (const name of await readdir(content)) if (!name.endsWith('.idx')) await unlink(join(content, name));
    await expect(pad.grep('s', 'log', { pattern: 'ERROR' })).rejects.toMatchObject({ code: 'STORE_CORRUPT' });
  });
});
