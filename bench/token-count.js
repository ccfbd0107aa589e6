/**
 * Token-counting benchmark: `npm run bench:token-count` (builds dist/ first).
 *
 * 2 MB of each kind of content (random letters, lower-case letters, printable ASCII, digits, base64, punctuation,
 * Japanese, whitespace, `x`, prose, a log, JSON, TypeScript source, the inspector's minified bundle) counted by the package's counter (`loadBpeCount` over `tokenPieces`, what notes,
 * offload thresholds and compaction use) and, paired and alternated, by gpt-tokenizer on the same pieces. Also:
 * gpt-tokenizer remembers the words it has merged, so repeated pieces (`x` × 2 M) cost it nothing after the
 * warm-up round, as ours does (words of up to 1,024 characters, 2 M characters in all). Figures are CPU time (the machine may be shared):
 * the worst time one piece held the loop, and the counter's error against the exact whole-text count (our merge
 * on the whole text at once, which gpt-tokenizer cannot do in reasonable time on runs without spaces).
 * Options: --rounds N (default 5), --encoding o200k|cl100k, --json PATH (default bench/results/token-count.json).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { optionValue } from './lib/command-line.js';
import { logPieces } from './lib/log-text.js';
import { median, printTable, round } from './lib/measure.js';

const here = dirname(fileURLToPath(import.meta.url));
const SIZE = 2 * 1024 * 1024;

function seeded(length, alphabet, seed = 12345) {
  const characters = [...alphabet];
  const out = new Array(length);
  let state = seed;
  for (let index = 0; index < length; index++) {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    out[index] = characters[(state >> 8) % characters.length];
  }
  return out.join('');
}

function repeatTo(text, bytes) {
  return text.repeat(Math.ceil(bytes / Buffer.byteLength(text))).slice(0, bytes);
}

function inputs() {
  const log = Buffer.concat([...logPieces(SIZE)])
    .toString('utf8')
    .slice(0, SIZE);
  const json = JSON.stringify(
    Array.from({ length: 20_000 }, (_, index) => ({
      id: index,
      name: `item-${index}`,
      tags: ['alpha', 'beta', `t${index % 97}`],
      price: (index * 7.31) % 1000,
      active: index % 3 === 0,
    })),
  ).slice(0, SIZE);
  const source = repeatTo(
    readFileSync(join(here, '..', 'src', 'scratchpad', 'tokens', 'bpe-count.ts'), 'utf8'),
    SIZE,
  );
  const assets = join(here, '..', 'dist', 'web', 'assets');
  const bundle = readdirSync(assets).find((name) => name.endsWith('.js'));
  if (bundle === undefined) throw new Error(`No minified bundle in ${assets}: run npm run build.`);
  return {
    // o200k's pattern starts a word at each upper-case letter after a lower-case one, so mixed case is short words.
    'letters (no space)': seeded(SIZE, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'),
    // One word as long as the run: every 512 characters merged as one word.
    'lower-case letters (no space)': seeded(SIZE, 'abcdefghijklmnopqrstuvwxyz'),
    'printable ASCII': seeded(
      SIZE,
      Array.from({ length: 95 }, (_, index) => String.fromCharCode(32 + index)).join(''),
    ),
    'x × 2 M': 'x'.repeat(SIZE),
    digits: seeded(SIZE, '0123456789'),
    base64: seeded(SIZE, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'),
    punctuation: seeded(SIZE, '!@#$%^&*()_+-=[]{};:,.<>/?'),
    whitespace: seeded(SIZE, ' \t\n\r'),
    japanese: repeatTo('ビルドはステップ3で失敗しました。ディスクの容量が足りません、再試行します。', SIZE),
    prose: repeatTo(
      'The quick brown fox jumps over the lazy dog, and the build failed at step 3 of 7. ',
      SIZE,
    ),
    log,
    json,
    'TypeScript source': source,
    'minified JS': repeatTo(readFileSync(join(assets, bundle), 'utf8'), SIZE),
  };
}

const cpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

async function main() {
  const argv = process.argv.slice(2);
  const option = (flag, fallback) => optionValue(flag, fallback, argv);
  const rounds = Number(option('--rounds', 5));
  const encoding = option('--encoding', 'o200k');
  const { loadBpeCount } = await import('../dist/context/tokens/load-bpe-count.js');
  const { tokenPieces } = await import('../dist/core/token-pieces.js');
  const ours = await loadBpeCount(encoding);
  const theirs = await import(`gpt-tokenizer/encoding/${encoding}_base`);
  const plain = { disallowedSpecial: new Set() };
  const countTheirs = (piece) => theirs.countTokens(piece, plain);
  const rows = [];
  const results = {};
  for (const [kind, text] of Object.entries(inputs())) {
    const pieces = [...tokenPieces(text)];
    const run = (count) => {
      const started = cpuMs();
      let total = 0;
      let worstPiece = 0;
      for (const piece of pieces) {
        const before = performance.now();
        total += count(piece);
        worstPiece = Math.max(worstPiece, performance.now() - before);
      }
      return { total, ms: cpuMs() - started, worstPiece };
    };
    const oursMs = [];
    const theirsMs = [];
    const ratios = [];
    let worstPiece = 0;
    let total = 0;
    let theirTotal = 0;
    // Warm-up (compiled code, caches), not counted.
    run(ours);
    run(countTheirs);
    for (let roundIndex = 0; roundIndex < rounds; roundIndex++) {
      console.error(`· ${kind} round ${roundIndex + 1}/${rounds}`);
      const pair =
        roundIndex % 2 === 0 ? [run(ours), run(countTheirs)] : [run(countTheirs), run(ours)].reverse();
      oursMs.push(pair[0].ms);
      theirsMs.push(pair[1].ms);
      ratios.push(pair[0].ms / pair[1].ms);
      worstPiece = Math.max(worstPiece, pair[0].worstPiece);
      total = pair[0].total;
      theirTotal = pair[1].total;
    }
    const whole = ours(text);
    const figures = {
      oursCpuMs: round(median(oursMs), 0),
      gptTokenizerCpuMs: round(median(theirsMs), 0),
      ratioMedian: round(median(ratios), 3),
      ratioMin: round(Math.min(...ratios), 3),
      ratioMax: round(Math.max(...ratios), 3),
      worstPieceMs: round(worstPiece, 1),
      tokens: total,
      samePiecesAsGptTokenizer: total === theirTotal,
      wholeTextTokens: whole,
      errorPercent: round(((total - whole) / whole) * 100, 3),
    };
    results[kind] = figures;
    rows.push([
      kind,
      `${figures.oursCpuMs} ms`,
      `${figures.gptTokenizerCpuMs} ms`,
      `${figures.ratioMedian} (${figures.ratioMin}–${figures.ratioMax})`,
      `${figures.worstPieceMs} ms`,
      figures.samePiecesAsGptTokenizer ? 'yes' : 'NO',
      `${figures.errorPercent}%`,
      figures.oursCpuMs < 200 ? '< 200 ms ✓' : '< 200 ms ✗',
    ]);
  }
  printTable(
    [
      `2 MB, ${encoding}`,
      'ours (CPU)',
      'gpt-tokenizer (CPU)',
      'ratio ours/theirs (median, range)',
      'worst piece',
      'same count',
      'error vs whole text',
      'target',
    ],
    rows,
  );
  const output = option('--json', join(here, 'results', 'token-count.json'));
  await mkdir(dirname(output), { recursive: true });
  await writeFile(
    output,
    `${JSON.stringify({ startedAt: new Date().toISOString(), encoding, rounds, results }, null, 2)}\n`,
  );
  console.error(`· wrote ${output}`);
}

await main();
