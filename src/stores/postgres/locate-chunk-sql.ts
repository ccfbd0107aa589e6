import type { ChunkAxis } from '../../core/chunk.js';

const AXIS_COLUMN: Record<ChunkAxis, string> = { byte: 'byte_start', char: 'char_start', line: 'line_start' };

/**
 * A query for the `seq` of the chunk of content `content` (of `count` chunks) holding `position` on `axis`: the
 * last chunk whose start on that axis is `<= position` (no row: chunk 0). One descending seek on the axis index,
 * which holds every chunk but the first (migration 7: it starts at 0 on every axis), so the query asks `seq > 0`.
 * `content`, `position` and `count` are SQL expressions (parameters or checked literals); `s` is the quoted schema.
 * `doLocateChunk` runs it, and the one-trip chunk read uses it as a subquery, so both locate alike.
 */
export function locateChunkSql(
  s: string,
  axis: ChunkAxis,
  content: string,
  position: string,
  count: string,
): string {
  const column = AXIS_COLUMN[axis];
  return `SELECT seq FROM ${s}.chunks WHERE content_id = ${content} AND ${column} <= ${position} AND seq > 0 AND seq < ${count}
    ORDER BY ${column} DESC, seq DESC LIMIT 1`;
}
