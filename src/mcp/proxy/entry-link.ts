import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { Entry } from '../../core/entry.js';
import { describeLifetime } from '../../core/lifetime.js';
import type { SessionScratchpad } from '../../service/session-scratchpad.js';
import { entryUri } from '../entry-uri.js';

/**
 * A `resource_link` to an entry the proxy stored; `holds` says which part of the upstream's result it holds
 * (e.g. `The text of read_file's result`).
 */
export function entryLink(session: SessionScratchpad, entry: Entry, holds: string): ContentBlock {
  return {
    type: 'resource_link',
    uri: entryUri(session.id, entry.name),
    name: entry.name,
    mimeType: entry.mediaType.split(';')[0] ?? 'application/octet-stream',
    size: entry.bytes,
    description: `${holds}, stored in the scratchpad and ${describeLifetime(entry, entry.updatedAt)} (read slices with ?offset=&limit= or ?lines=A:B).`,
  };
}

/** `the scratchpad entry "NAME" (scratchpad://SESSION/NAME)`. */
export function entryReference(session: SessionScratchpad, name: string): string {
  return `the scratchpad entry "${name}" (${entryUri(session.id, name)})`;
}
