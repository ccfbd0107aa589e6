import { clipStrings } from '../core/clip-strings.js';
import type { Entry } from '../core/entry.js';
import type { JsonValue } from '../core/json.js';

/** An entry as the inspector lists it: every field but the metadata, which may be arbitrarily large. */
export type EntrySummary = Omit<Entry, 'metadata'> & { metadataKeys: number };

/** An entry with its metadata clipped to a size one reply can carry. */
export type EntryDetail = EntrySummary & { metadata: JsonValue };

const MAX_METADATA_STRING_CHARS = 1000;
const MAX_METADATA_JSON_CHARS = 64 * 1024;

/** The list form of an entry. */
export function summarizeEntry(entry: Entry): EntrySummary {
  const { metadata, ...rest } = entry;
  return { ...rest, metadataKeys: Object.keys(metadata).length };
}

/** The detail form: long strings in the metadata clipped, and a metadata object too large even then replaced by a note. */
export function detailEntry(entry: Entry): EntryDetail {
  const clipped = clipStrings(entry.metadata, MAX_METADATA_STRING_CHARS) as JsonValue;
  const size = JSON.stringify(clipped).length;
  return {
    ...summarizeEntry(entry),
    metadata:
      size > MAX_METADATA_JSON_CHARS
        ? { _clipped: `The metadata is ${size} characters even with long strings clipped; not shown.` }
        : clipped,
  };
}
