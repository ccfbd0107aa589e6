import { queryTerms } from '../../core/query-terms.js';
import { setNewest } from '../../core/recent-map.js';
import { markSegmentedTerms, unsegmentScripts } from '../../core/script-segments.js';
import type { DriverSearchHit, DriverSearchRequest, IndexingProgress } from '../driver.js';
import type { PostgresQueryable } from './postgres-pool.js';
import { entryColumns, toEntryRecord } from './postgres-records.js';
import { sqlString, WORD_JOINERS } from './postgres-schema.js';
import { ASYNC_COMMIT } from './postgres-staging.js';

/**
 * Chunks indexed per statement (one short transaction), so indexing holds few row locks at a time and a killed
 * process loses at most this much work: what committed stays indexed, the rest is indexed by the next search.
 * Eight of PostgreSQL's 64 KiB chunks are 512 KiB, about 0.1 s of the server's text parsing.
 */
const INDEX_BATCH = 8;

/** Statements one indexing step runs at once, each on its own connection: parsing text is the server's CPU. */
const INDEX_WORKERS = 4;

/** Word joiners and the snippet markers, as spaces in the text `ts_headline` reads. */
const HEADLINE_BREAKS = `${WORD_JOINERS}[]`;
const HEADLINE_BREAK_PATTERN = new RegExp(`[${HEADLINE_BREAKS.replace(/[\\\][^-]/g, '\\$&')}]`, 'g');

/** Characters around the first hit that `ts_headline` picks its snippet from. */
const SNIPPET_WINDOW = 360;

/**
 * Ranked full-text search over the indexed text chunks of one session: any query word matches (OR), each chunk
 * scores `ts_rank_cd` over its tsvector, an entry scores the sum over its chunks plus a name match (weight B),
 * and the snippet is `ts_headline` around the first hit in the entry's best chunk, terms marked `[…]`. Chunks get
 * their tsvector from {@link PostgresIndexing}, which searches run in the background (the driver's `BackgroundIndexer`),
 * not when written; chunks not indexed yet are not searched (the driver reports {@link indexingProgress}).
 */
export async function searchSession(
  db: PostgresQueryable,
  s: string,
  request: DriverSearchRequest,
): Promise<DriverSearchHit[]> {
  const terms = queryTerms(request.query);
  if (terms.length === 0 || request.limit <= 0) return [];
  const ranked = await db.query(rankSql(s), [request.session, terms, request.limit]);
  const hits = ranked.rows.map((row) => ({
    record: toEntryRecord(row),
    score: Number(row.score),
    bestSeq: row.best_seq === null ? undefined : Number(row.best_seq),
  }));
  const withChunk = hits.filter((hit) => hit.bestSeq !== undefined);
  const snippets = new Map<string, string>();
  if (withChunk.length > 0) {
    const found = await db.query(snippetSql(s), [
      terms,
      withChunk.map((hit) => hit.record.contentId),
      withChunk.map((hit) => hit.bestSeq),
    ]);
    for (const row of found.rows) {
      snippets.set(
        String(row.content_id),
        markSegmentedTerms(restoreHeadline(String(row.piece), unsegmentScripts(String(row.headline))), terms)
          .replace(/\s+/g, ' ')
          .trim(),
      );
    }
  }
  return hits.map((hit) => ({
    record: hit.record,
    score: hit.score,
    snippet: snippets.get(hit.record.contentId) || hit.record.name,
  }));
}

/** Where a session's indexing goes on: its text entries in name order, from chunk `seq` of entry `name`. */
interface IndexPosition {
  name: string;
  seq: number;
}

/** Sessions whose position is remembered at once; an older one starts again from its first entry. */
const POSITIONS_KEPT = 1_024;

/**
 * A session's full-text indexing in steps (the driver's `BackgroundIndexer` runs them): each step computes the
 * tsvectors of up to {@link INDEX_WORKERS} × {@link INDEX_BATCH} chunks that have none, one committed statement per
 * batch, and returns how many (0: nothing left that no one else holds). Chunks another process is indexing are
 * skipped, not waited for. The event loop only sends the statements: the server does the work.
 *
 * A step goes on from where the last one began (entries by name, chunks by seq), so it reads the rows it indexes
 * and the few the step before indexed, not every row indexed before them: from the start, a step halfway through
 * a 100 MB session read the 765 chunks before it (1.6 ms), and one near the end of 1 GB 16,000 (some 30 ms,
 * longer than parsing the chunks it indexed). From the first row the last step took, not after the last: only
 * the entries come in name order by the statement's `ORDER BY`; an entry's chunks come in seq order from the plan
 * this statement gets (a range of `chunks_pkey`), which nothing guarantees, and the chunks a plan returned out of
 * order before that first one are left to the pass from the start. Rows a step went past (held by another
 * process's write or indexing, or written meanwhile under a name before the position) are found by one more pass
 * from the start, which the step that finds nothing after the position begins: a session is done only when a
 * pass from the start finds nothing.
 */
export class PostgresIndexing {
  readonly #db: PostgresQueryable;
  readonly #s: string;
  readonly #positions = new Map<string, IndexPosition>();

  constructor(db: PostgresQueryable, s: string) {
    this.#db = db;
    this.#s = s;
  }

  async step(session: string): Promise<number> {
    const from = this.#positions.get(session);
    const batches = await Promise.all(
      Array.from({ length: INDEX_WORKERS }, () => this.#batch(session, from ?? { name: '', seq: 0 })),
    );
    const indexed = batches.flat();
    const first = indexed.reduce<IndexPosition | undefined>(
      (earliest, position) => (earliest === undefined || isBefore(position, earliest) ? position : earliest),
      undefined,
    );
    if (first !== undefined) {
      // The position never moves back: the last step's first row is indexed now, and rows before it are not asked for.
      setNewest(this.#positions, session, first, POSITIONS_KEPT);
      return indexed.length;
    }
    this.#positions.delete(session);
    return from === undefined ? 0 : this.step(session);
  }

  async #batch(session: string, from: IndexPosition): Promise<IndexPosition[]> {
    const s = this.#s;
    const result = await this.#db.query(
      `WITH pending AS (
           SELECT d.id, e.name, c.content_id, c.seq FROM ${s}.entries e
           JOIN ${s}.chunks c ON c.content_id = e.content_id AND c.seq < e.chunk_count
             AND c.seq >= CASE WHEN e.name = $3 THEN $4::bigint ELSE 0 END
           JOIN ${s}.chunk_data d ON d.id = c.data_id
           WHERE e.session = $1 AND e.name >= $3 AND e.kind = 'text' AND d.tsv IS NULL
           ORDER BY e.name
           LIMIT $2
           FOR UPDATE OF d SKIP LOCKED
         )
         UPDATE ${s}.chunk_data d SET tsv = ${s}.index_tsvector(${seamSql(s, 'pending.content_id', 'pending.seq')}, d.data)
         FROM pending CROSS JOIN (SELECT ${ASYNC_COMMIT}) relaxed WHERE d.id = pending.id
         RETURNING pending.name, pending.seq`,
      [session, INDEX_BATCH, from.name, from.seq],
    );
    return result.rows.map((row) => ({ name: String(row.name), seq: Number(row.seq) }));
  }
}

/**
 * Whether `a` comes before `b` in the entries' order: by name as their "C" collation sorts them (names are ASCII,
 * `core/names.ts`, so code-unit order is byte order), then by seq.
 */
function isBefore(a: IndexPosition, b: IndexPosition): boolean {
  return a.name === b.name ? a.seq < b.seq : a.name < b.name;
}

/** Bytes of the session's text chunks, and how many of them are indexed. */
export async function indexingProgress(
  db: PostgresQueryable,
  s: string,
  session: string,
): Promise<IndexingProgress> {
  const result = await db.query(
    `SELECT coalesce(sum(c.bytes) FILTER (WHERE d.tsv IS NOT NULL), 0) AS done, coalesce(sum(c.bytes), 0) AS total
     FROM ${s}.entries e
     JOIN ${s}.chunks c ON c.content_id = e.content_id AND c.seq < e.chunk_count
     JOIN ${s}.chunk_data d ON d.id = c.data_id
     WHERE e.session = $1 AND e.kind = 'text'`,
    [session],
  );
  return { done: Number(result.rows[0]?.done ?? 0), total: Number(result.rows[0]?.total ?? 0) };
}

/**
 * The end of the chunk before chunk `seq` of `content` (NULL for the first), which that chunk is indexed after so
 * a word the boundary cuts is whole in one tsvector (`seam_prefix`, migration 9).
 */
function seamSql(s: string, content: string, seq: string): string {
  return `(SELECT ${s}.seam_prefix(${s}.chunk_text(pd.data)) FROM ${s}.chunks pc
    JOIN ${s}.chunk_data pd ON pd.id = pc.data_id WHERE pc.content_id = ${content} AND pc.seq = ${seq} - 1)`;
}

/**
 * The terms in parameter `terms` as one OR query; NULL when no term has a lexeme, which matches nothing. Each term
 * is a phrase of its words, CJK and Thai characters segmented as the index segments them (`segment_scripts`).
 */
function querySql(s: string, terms: string): string {
  return `SELECT string_agg(part::text, ' | ')::tsquery AS q
    FROM (SELECT phraseto_tsquery('simple', ${s}.segment_scripts(term)) AS part FROM unnest(${terms}::text[]) AS term) parts
    WHERE numnode(part) > 0`;
}

function rankSql(s: string): string {
  // Indexed chunks only, through the GIN index: computing the missing tsvectors here would make a first search
  // over a large session wait for all of them.
  return `WITH query AS (${querySql(s, '$2')}),
    candidates AS (SELECT content_id, chunk_count, name FROM ${s}.entries WHERE session = $1 AND kind = 'text'),
    chunk_hits AS (
      SELECT c.content_id, c.seq, ts_rank_cd(d.tsv, query.q) AS rank
      FROM candidates e
      JOIN ${s}.chunks c ON c.content_id = e.content_id AND c.seq < e.chunk_count
      JOIN ${s}.chunk_data d ON d.id = c.data_id
      CROSS JOIN query
      WHERE d.tsv @@ query.q
    ),
    content_scores AS (
      SELECT content_id, sum(rank) AS rank, (array_agg(seq ORDER BY rank DESC, seq))[1] AS best_seq
      FROM chunk_hits GROUP BY content_id
    ),
    name_scores AS (
      SELECT e.content_id, ts_rank_cd(setweight(v.tsv, 'B'), query.q) AS rank
      FROM candidates e
      CROSS JOIN query
      CROSS JOIN LATERAL (SELECT to_tsvector('simple', translate(e.name, '._-', '   ')) AS tsv) v
      WHERE v.tsv @@ query.q
    )
    SELECT ${entryColumns('e')}, coalesce(cs.rank, 0) + coalesce(ns.rank, 0) AS score, cs.best_seq
    FROM ${s}.entries e
    LEFT JOIN content_scores cs ON cs.content_id = e.content_id
    LEFT JOIN name_scores ns ON ns.content_id = e.content_id
    WHERE e.session = $1 AND e.kind = 'text' AND (cs.content_id IS NOT NULL OR ns.content_id IS NOT NULL)
    ORDER BY score DESC, e.name
    LIMIT $3`;
}

/**
 * `ts_headline` runs on the window with word joiners as spaces (so `scheduler/worker` is two words, as indexed)
 * and without `[`/`]`, so those in its result are the markers; this puts the window's own characters back
 * under the headline. Falls back to the headline as is should it not line up.
 */
export function restoreHeadline(piece: string, headline: string): string {
  const spaced = piece.replace(HEADLINE_BREAK_PATTERN, ' ');
  const at = spaced.indexOf(headline.replace(/[[\]]/g, ''));
  if (at === -1) return headline;
  let restored = '';
  let index = at;
  for (const character of headline) {
    if (character === '[' || character === ']') {
      restored += character;
    } else {
      restored += piece.slice(index, index + character.length);
      index += character.length;
    }
  }
  return restored;
}

function snippetSql(s: string): string {
  // The window starts a little before the first occurrence of any term, so ts_headline parses a few hundred
  // characters instead of the whole chunk.
  return `WITH query AS (${querySql(s, '$1')})
    SELECT t.content_id, w.piece,
      ts_headline('simple', ${s}.segment_scripts(translate(w.piece, ${sqlString(HEADLINE_BREAKS)}, ${sqlString(' '.repeat(HEADLINE_BREAKS.length))})),
        query.q, 'StartSel=[, StopSel=], MaxWords=30, MinWords=12') AS headline
    FROM unnest($2::text[], $3::int[]) AS t(content_id, seq)
    JOIN ${s}.chunks c ON c.content_id = t.content_id AND c.seq = t.seq
    JOIN ${s}.chunk_data d ON d.id = c.data_id
    CROSS JOIN query
    CROSS JOIN LATERAL (
      SELECT coalesce(${seamSql(s, 't.content_id', 't.seq')}, '') || ${s}.chunk_text(d.data) AS body OFFSET 0
    ) x
    CROSS JOIN LATERAL (SELECT lower(x.body) AS lowered OFFSET 0) y
    CROSS JOIN LATERAL (
      SELECT min(nullif(strpos(y.lowered, term), 0)) AS at FROM unnest($1::text[]) AS term
    ) found
    CROSS JOIN LATERAL (
      SELECT substr(x.body, greatest(1, coalesce(found.at, 1) - ${SNIPPET_WINDOW / 3}), ${SNIPPET_WINDOW}) AS piece
    ) w`;
}
