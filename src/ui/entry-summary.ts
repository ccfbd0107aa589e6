import { clipStrings } from '../core/clip-strings.js';
import type { Entry } from '../core/entry.js';
import type { JsonValue } from '../core/json.js';
import type { EntryDetail, EntrySummary } from './api-types.js';

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
