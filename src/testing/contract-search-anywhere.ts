import fc from 'fast-check';
import { expect } from 'vitest';
import type { ContractHarness } from './contract-harness.js';

/** How long one case may take on the slowest backend (a 300 KB write, indexing it, a search). */
const CASE_TIMEOUT_MS = 120_000;

/**
 * Filler the planted words can never be part of: Latin words without `z` or `x`, Cyrillic, Greek and hiragana
 * (the planted words are `zx…` in Latin, or katakana, Han, Thai or Hangul).
 */
const FILLER = [
  'lorem ',
  'ipsum dolor ',
  'sit amet, ',
  'привет мир ',
  'καλημέρα κόσμε ',
  'これはぶんしょうです。',
  'のなかに',
  '\n',
  'tempor incididunt ',
];

/** A word in one script, and whether it needs spaces around it to be a word (Latin and Hangul do). */
interface PlantedWord {
  word: string;
  spaced: boolean;
}

const fromRange = (first: number, last: number, minLength: number, maxLength: number) =>
  fc
    .array(fc.integer({ min: first, max: last }), { minLength, maxLength })
    .map((codes) => String.fromCodePoint(...codes));

const plantedWord: fc.Arbitrary<PlantedWord> = fc.oneof(
  fc.stringMatching(/^[a-wy]{3,10}$/).map((tail) => ({ word: `zx${tail}`, spaced: true })),
  fromRange(0x30a1, 0x30fa, 2, 5).map((word) => ({ word, spaced: false })), // katakana
  fromRange(0x4e00, 0x9fa5, 1, 4).map((word) => ({ word, spaced: false })), // Han
  fromRange(0x0e01, 0x0e2e, 2, 6).map((word) => ({ word, spaced: false })), // Thai consonants
  fromRange(0xac00, 0xd7a3, 1, 4).map((word) => ({ word, spaced: true })), // Hangul syllables
);

/** `bytes` bytes of filler (a few spaces pad it to the exact size: filler characters take 1 to 3 bytes). */
function fillerOf(bytes: number, start: number): string {
  let text = '';
  let size = 0;
  for (let index = start; ; index++) {
    const piece = FILLER[index % FILLER.length] as string;
    const pieceBytes = Buffer.byteLength(piece);
    if (size + pieceBytes > bytes) break;
    text += piece;
    size += pieceBytes;
  }
  return text + ' '.repeat(bytes - size);
}

/**
 * Search finds every word that is in an entry, wherever it sits: across a chunk boundary (the index must not cut
 * a word in two where the content's chunks are cut) and in scripts written without spaces between words
 * (Japanese, Chinese, Thai), on every backend, once the session is indexed.
 */
export function searchAnywhereContract({ open, test }: ContractHarness): void {
  test(
    'search finds a word across the 256 KiB chunk boundary, and Japanese words inside a sentence',
    async () => {
      const pad = open({ chunkSize: 256 * 1024 });
      const at = 262_140;
      await pad.write('s1', 'seam', `${fillerOf(at - 1, 0)} zebracornflakes ${fillerOf(40_000, 3)}`);
      await pad.write('s1', 'ja', '全文検索の結果：エラーが発生しました。もう一度お試しください。');
      await pad.finishIndexing('s1');
      for (const [query, name] of [
        ['zebracornflakes', 'seam'],
        ['エラー', 'ja'],
        ['検索', 'ja'],
        ['発生', 'ja'],
      ] as const) {
        const { hits, indexing } = await pad.search('s1', query);
        expect(indexing).toBeUndefined();
        expect(
          hits.map((hit) => hit.entry.name),
          `search for ${query}`,
        ).toEqual([name]);
      }
      const [hit] = (await pad.search('s1', 'エラー')).hits;
      expect(hit?.snippet).toContain('[エラー]');
      expect(hit?.snippet).toContain('発生しました');
    },
    CASE_TIMEOUT_MS,
  );

  test(
    'search finds a planted word at any offset, chunk boundaries included, in any script',
    async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          plantedWord,
          fc.integer({ min: 256, max: 2048 }),
          fc.integer({ min: 1, max: 4 }),
          fc.integer({ min: -16, max: 16 }),
          fc.nat(FILLER.length - 1),
          async ({ word, spaced }, chunkSize, boundary, shift, start) => {
            run += 1;
            const pad = open({ chunkSize });
            // Around the start of chunk `boundary` (shifted up to 16 bytes either way), or past the end of it.
            const at = Math.max(0, boundary * chunkSize + shift);
            const glue = spaced ? ' ' : '';
            const content = `${fillerOf(at, start)}${glue}${word}${glue}${fillerOf(chunkSize, start + 1)}`;
            const name = `planted-${run}`;
            await pad.write('s1', name, content);
            await pad.finishIndexing('s1');
            const { hits, indexing } = await pad.search('s1', word);
            expect(indexing).toBeUndefined();
            expect(
              hits.map((hit) => hit.entry.name),
              `${JSON.stringify(word)} at byte ${at}, chunks of ${chunkSize}`,
            ).toContain(name);
            await pad.delete('s1', name);
          },
        ),
        { numRuns: 40 },
      );
    },
    CASE_TIMEOUT_MS * 2,
  );
}
