/**
 * Full-text index size and first-search time on mixed-script text (issue 31): one entry of `--megabytes` MB
 * (default 100) of lines in English, Japanese, Chinese, Thai, Korean and Russian, written to a fresh store
 * (SQLite in a temporary directory, or a schema of its own on `--store postgres://…`), then:
 * - the first search's answer time (it answers from what was indexed in its first 250 ms),
 * - the time until the session's index is complete (`finishIndexing`, as the CLI's `search` waits),
 * - a search's time on the complete index, and the index's size (SQLite: the FTS5 segment and docsize rows;
 *   PostgreSQL: the GIN index plus the stored tsvectors),
 * - how many entries `エラー` and `zebracornflakes` find (both are in the text; the second across a chunk boundary).
 * `--dist <dir>` runs another build (e.g. the previous release's) for a before/after comparison.
 *
 *   node bench/mixed-script-search.js [--megabytes 100] [--store postgres://…] [--dist ./dist]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { optionValue as option } from './lib/command-line.js';
import { random } from './lib/log-text.js';

const MB = 1_000_000;
const megabytes = Number(option('--megabytes') ?? 100);
const store = option('--store');
const dist = pathToFileURL(`${resolve(option('--dist') ?? 'dist')}/`).href;

const SENTENCES = [
  (n) => `2026-12-05T10:${n % 60} INFO worker-${n % 7} handled request ${n} in ${n % 97} ms\n`,
  (n) => `2026-12-05T10:${n % 60} ERROR db query failed: timeout after ${n % 5000} ms (retry ${n % 5}/5)\n`,
  (n) => `処理番号${n}：データベースへの接続がタイムアウトしました。再試行します。\n`,
  (n) => `ジョブ${n}でエラーが発生しました。ログを確認してください。\n`,
  (n) => `第${n}号请求：全文检索服务返回了结果，耗时${n % 97}毫秒。\n`,
  (n) => `คำขอที่ ${n} ได้รับการประมวลผลเรียบร้อยแล้วภายใน ${n % 97} มิลลิวินาที\n`,
  (n) => `요청 ${n}번이 처리되었습니다. 검색 결과를 확인하세요.\n`,
  (n) => `Запрос ${n} обработан за ${n % 97} мс, ошибок не найдено.\n`,
];

/** `bytes` bytes (about) of mixed-script lines; `zebracornflakes` across the boundary at 262,144 bytes. */
function mixedText(bytes) {
  const next = random(31);
  const parts = [];
  let size = 0;
  let n = 0;
  while (size < bytes) {
    const line = SENTENCES[Math.floor(next() * SENTENCES.length)](n++);
    parts.push(line);
    size += Buffer.byteLength(line);
  }
  const text = parts.join('');
  const boundary = 256 * 1024;
  // Cut at a character boundary near 262,140 bytes, then the word.
  const head = Buffer.from(text)
    .subarray(0, boundary - 4)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
  return `${head} zebracornflakes ${text.slice(head.length)}`;
}

async function freshStore() {
  if (!store) {
    const { createSqliteDriver } = await import(`${dist}stores/sqlite/index.js`);
    const { openSqliteConnection } = await import(`${dist}stores/sqlite/sqlite-binding.js`);
    const directory = await mkdtemp(join(tmpdir(), 'scratchpad-mixed-search-'));
    const path = join(directory, 'store.db');
    return {
      driver: createSqliteDriver({ path }),
      indexBytes: async () => {
        const raw = openSqliteConnection(path, { readOnly: true });
        try {
          const data = raw
            .prepare('SELECT coalesce(sum(length(block)), 0) AS n FROM search_index_data')
            .get();
          const docs = raw
            .prepare('SELECT coalesce(sum(length(sz)), 0) AS n FROM search_index_docsize')
            .get();
          return Number(data.n) + Number(docs.n);
        } finally {
          raw.close();
        }
      },
      remove: () => rm(directory, { recursive: true, force: true }),
    };
  }
  const { createPostgresDriver } = await import(`${dist}stores/postgres/index.js`);
  const pg = (await import('pg')).default;
  const schema = `scratchpad_mixed_search_${process.pid}`;
  const client = new pg.Client({ connectionString: store });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  return {
    driver: await createPostgresDriver({ connectionString: store, schema }),
    indexBytes: async () => {
      const found = await client.query(
        `SELECT pg_relation_size('${schema}.chunk_data_tsv') + (SELECT coalesce(sum(pg_column_size(tsv)), 0)
           FROM ${schema}.chunk_data) AS n`,
      );
      return Number(found.rows[0].n);
    },
    remove: async () => {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}

const { createScratchpad } = await import(`${dist}index.js`);
const { driver, indexBytes, remove } = await freshStore();
try {
  const pad = createScratchpad({ driver });
  const text = mixedText(megabytes * MB);
  await pad.write('bench', 'mixed', text);
  let started = performance.now();
  const first = await pad.search('bench', 'timeout error');
  const firstAnswerMs = performance.now() - started;
  started = performance.now();
  await pad.finishIndexing('bench');
  const indexedMs = performance.now() - started + firstAnswerMs;
  started = performance.now();
  const whole = await pad.search('bench', 'timeout error');
  const wholeSearchMs = performance.now() - started;
  const found = async (query) => (await pad.search('bench', query)).hits.length;
  const figures = {
    store: store ? 'PostgreSQL' : 'SQLite',
    build: option('--dist') ?? 'dist',
    megabytes: Math.round(Buffer.byteLength(text) / MB),
    firstAnswerMs: Math.round(firstAnswerMs),
    firstAnswerIndexed: first.indexing ? `${first.indexing.done}/${first.indexing.total}` : 'whole',
    indexCompleteMs: Math.round(indexedMs),
    searchOnCompleteIndexMs: Math.round(wholeSearchMs),
    wholeHits: whole.hits.length,
    indexMB: Math.round((await indexBytes()) / 10_000) / 100,
    foundエラー: await found('エラー'),
    foundZebracornflakes: await found('zebracornflakes'),
  };
  console.log(JSON.stringify(figures));
  await pad.close();
} finally {
  await remove();
}
