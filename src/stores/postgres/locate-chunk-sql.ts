import type { ChunkAxis } from '../../core/chunk.js';

/**
 * A query for the `seq` of the chunk of content `content` (of `count` chunks) holding `position` on `axis`: the
 * last chunk whose start on that axis is `<= position`, chunk 0 when none after it qualifies (column `seq`, one
 * row). It calls `locate_chunk` (migration 8), one descending seek on the axis index, which holds every chunk but
 * the first (migration 7: it starts at 0 on every axis); a plain query would leave the plan to statistics that
 * may not know the content is large. `content`, `position` and `count` are SQL expressions (parameters or
 * checked literals); `s` is the quoted schema. `doLocateChunk` runs it, and the one-trip chunk read uses it as a
 * subquery, so both locate alike.
 */
export function locateChunkSql(
  s: string,
  axis: ChunkAxis,
  content: string,
  position: string,
  count: string,
): string {
  return `SELECT ${s}.locate_chunk(${content}::text, '${axis}', ${position}::bigint, ${count}::bigint) AS seq`;
}
