import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScratchpad } from '../../service/scratchpad.js';
import { BlobDirectory } from './blob-directory.js';
import { registerChunkTextFunction } from './chunk-text-function.js';
import { createSqliteDriver } from './index.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from './sqlite-schema.js';
import { openRawConnection } from './test-fixtures/raw-connection.js';

const root = mkdtempSync(join(tmpdir(), 'scratchpad-search-seams-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The two chunks of the legacy entry: a word cut by their boundary, and a Japanese sentence. */
const FIRST = 'the log ends with zebracorn';
const SECOND = 'flakes and then エラーが発生しました';

describe('migration 10: a store indexed before is indexed again, over seams and CJK', () => {
  it('finds the words the old index missed, once its next searches have indexed it again', async () => {
    const path = join(root, 'legacy.db');
    const legacy = openRawConnection(path);
    legacy.pragma('journal_mode = WAL');
    for (const migration of MIGRATIONS.slice(0, 9)) legacy.exec(migration);
    legacy.pragma('user_version = 9');
    legacy.pragma(`application_id = ${APPLICATION_ID}`);
    const bytes = (text: string) => Buffer.byteLength(text);
    const chars = (text: string) => [...text].length;
    legacy.exec(`
      INSERT INTO sessions VALUES ('s1', 1, 1);
      INSERT INTO contents (id, session, created_at, committed) VALUES (1, 's1', 1, 1);
      INSERT INTO entries VALUES
        ('s1', 'log', '0123456789abcdef', NULL, NULL, NULL, 'text', 'text/plain', ${bytes(FIRST + SECOND)},
          ${chars(FIRST + SECOND)}, 1, 'x', 1, 1, NULL, 0, 1, '{}', 1, 2, 0);
      INSERT INTO chunks (id, content, seq, byte_start, char_start, line_start, bytes, chars, newlines)
        VALUES (1, 1, 0, 0, 0, 0, ${bytes(FIRST)}, ${chars(FIRST)}, 0),
               (2, 1, 1, ${bytes(FIRST)}, ${chars(FIRST)}, 0, ${bytes(SECOND)}, ${chars(SECOND)}, 0);
      INSERT INTO chunk_data VALUES (1, CAST('${FIRST}' AS BLOB)), (2, CAST('${SECOND}' AS BLOB));
    `);
    // Indexed as the previous release indexed: each chunk's text as it is.
    legacy.exec(`
      INSERT INTO search_index (rowid, name, body) SELECT id, 'log', CAST(data AS TEXT) FROM chunk_data;
      UPDATE chunks SET indexed = 1;
    `);
    const matches = (query: string): number =>
      (
        legacy
          .prepare('SELECT count(*) AS count FROM search_index WHERE search_index MATCH ?')
          .get(query) as { count: number }
      ).count;
    expect(matches('"zebracornflakes"')).toBe(0);
    expect(matches('"エラー"')).toBe(0);
    legacy.close();

    const pad = createScratchpad({ driver: createSqliteDriver({ path }) });
    await pad.finishIndexing('s1');
    for (const query of ['zebracornflakes', 'エラー', '発生', 'ends']) {
      const { hits, indexing } = await pad.search('s1', query);
      expect(indexing).toBeUndefined();
      expect(
        hits.map((hit) => hit.entry.name),
        query,
      ).toEqual(['log']);
    }
    expect((await pad.search('s1', 'エラー')).hits[0]?.snippet).toContain('[エラー]');
    // Deleting the entry takes its rows out of the index exactly (FTS5 replays what was indexed).
    await pad.delete('s1', 'log');
    await pad.close();

    const check = openRawConnection(path);
    registerChunkTextFunction(check, new BlobDirectory(path));
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(() =>
      check.exec("INSERT INTO search_index (search_index, rank) VALUES ('integrity-check', 1)"),
    ).not.toThrow();
    check.close();
  });
});
