import { ScratchpadError } from '../core/errors.js';
import { isValidName } from '../core/names.js';
import type { ReadSlice } from '../core/slice.js';
import { parseLines } from '../tools/default/read-tool.js';

/** The URI scheme of entries. */
export const ENTRY_URI_SCHEME = 'scratchpad';

/** Entries are MCP resources at `scratchpad://SESSION/NAME`, optionally sliced: `?lines=A:B`, `?head=N`, `?tail=N`, `?offset=N&limit=N`. */
export const ENTRY_URI_TEMPLATE = 'scratchpad://{session}/{name}';

/** The resource template of one session's entries: `scratchpad://SESSION/{name}`. */
export function entryUriTemplate(session: string): string {
  return `scratchpad://${session}/{name}`;
}

/** The resource URI of an entry. */
export function entryUri(session: string, name: string): string {
  return `scratchpad://${session}/${name}`;
}

/** Parses an entry URI into its session, name and slice. */
export function parseEntryUri(uri: string): { session: string; name: string; slice: ReadSlice } {
  const match = /^scratchpad:\/\/([^/?#]+)\/([^/?#]+)(?:\?([^#]*))?$/.exec(uri);
  if (!match || !isValidName(match[1]) || !isValidName(match[2])) {
    throw new ScratchpadError('INVALID_ARGUMENT', `Not a scratchpad entry URI: ${uri}`, {
      hint: 'Use scratchpad://SESSION/NAME, optionally with ?lines=A:B, ?head=N, ?tail=N or ?offset=N&limit=N.',
    });
  }
  const query = new URLSearchParams(match[3] ?? '');
  return { session: match[1] as string, name: match[2] as string, slice: sliceOf(query) };
}

function sliceOf(query: URLSearchParams): ReadSlice {
  const number = (key: string): number => {
    const value = Number(query.get(key));
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new ScratchpadError(
        'INVALID_ARGUMENT',
        `?${key}= must be a non-negative integer, got ${JSON.stringify(query.get(key))}.`,
      );
    }
    return value;
  };
  if (query.has('lines')) return parseLines(query.get('lines') ?? '');
  if (query.has('head')) return { type: 'head', count: number('head') };
  if (query.has('tail')) return { type: 'tail', count: number('tail') };
  if (query.has('offset') || query.has('limit')) {
    return {
      type: 'offset',
      offset: query.has('offset') ? number('offset') : 0,
      limit: query.has('limit') ? number('limit') : Number.MAX_SAFE_INTEGER,
    };
  }
  return { type: 'full' };
}
