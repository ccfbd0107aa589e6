import { createHash } from 'node:crypto';
import type { Entry } from '../../core/entry.js';
import type { SessionScratchpad } from '../scratchpad.js';
import { EntryNamer } from './entry-namer.js';
import type { OffloadContent } from './offload-content.js';

/**
 * The entry that already holds this exact result of this tool in this session (and turn), if any: offloading the
 * same bytes twice names the existing entry instead of storing a copy. Only entries of the same size are hashed.
 */
export async function findDuplicateEntry(
  session: SessionScratchpad,
  query: { tool: string; source: string; turn: string | null; content: OffloadContent },
): Promise<Entry | undefined> {
  const { content } = query;
  const candidates: Entry[] = [];
  for await (const entry of session.entries({ prefix: `${EntryNamer.fragmentOf(query.tool)}_` })) {
    if (
      entry.source === query.source &&
      entry.turn === query.turn &&
      entry.kind === content.kind &&
      entry.bytes === content.bytes.byteLength
    )
      candidates.push(entry);
  }
  if (candidates.length === 0) return undefined;
  const sha256 = createHash('sha256').update(content.bytes).digest('hex');
  return candidates.find((entry) => entry.sha256 === sha256);
}
