import { createHash } from 'node:crypto';
import type { Entry, EntryKind } from '../../core/entry.js';
import type { JsonObject, JsonValue } from '../../core/json.js';
import type { SessionScratchpad } from '../../service/scratchpad.js';
import { EntryNamer } from './entry-namer.js';

/**
 * The entry that already holds this exact result of this tool in this session (and turn), if any: offloading the
 * same bytes twice names the existing entry instead of storing a copy. Only entries of the same size are hashed.
 * With `metadata`, only an entry with exactly that metadata is the same result (the same content with `ok: false`
 * and an error is another result, and its entry holds its own fields).
 */
export async function findDuplicateEntry(
  session: SessionScratchpad,
  query: {
    tool: string;
    source: string;
    turn: string | null;
    kind: EntryKind;
    /** The bytes the result is stored as. */
    bytes: Uint8Array;
    metadata?: JsonObject;
  },
): Promise<Entry | undefined> {
  const candidates: Entry[] = [];
  for await (const entry of session.entries({ prefix: `${EntryNamer.fragmentOf(query.tool)}_` })) {
    if (
      entry.source === query.source &&
      entry.turn === query.turn &&
      entry.kind === query.kind &&
      entry.bytes === query.bytes.byteLength &&
      (query.metadata === undefined || canonicalJson(entry.metadata) === canonicalJson(query.metadata))
    )
      candidates.push(entry);
  }
  if (candidates.length === 0) return undefined;
  const sha256 = createHash('sha256').update(query.bytes).digest('hex');
  return candidates.find((entry) => entry.sha256 === sha256);
}

/** JSON with every object's keys sorted: equal for equal values whatever order a store keeps keys in (jsonb). */
function canonicalJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] as JsonValue)}`).join(',')}}`;
}
