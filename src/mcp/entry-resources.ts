import {
  type CompleteResult,
  ErrorCode,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  McpError,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Entry } from '../core/entry.js';
import { ScratchpadError } from '../core/errors.js';
import { formatBytes } from '../core/format.js';
import { errorPayload, formatError } from '../core/format-error.js';
import type { SessionScratchpad } from '../service/session-scratchpad.js';
import { ENTRY_URI_SCHEME, entryUri, entryUriTemplate, parseEntryUri } from './entry-uri.js';

/** Entries listed per `resources/list` page. */
export const RESOURCE_PAGE_SIZE = 200;

/** Names offered per completion. */
const COMPLETION_LIMIT = 100;

/**
 * The entries of one session as MCP resources (`scratchpad://SESSION/NAME`, sliced with `?lines=`, `?head=`,
 * `?tail=`, `?offset=&limit=`). Everything is confined to that session: a URI naming another session is not
 * found, with the same answer whether that session exists or not, and lists and completions show only this one.
 */
export class EntryResources {
  readonly #session: SessionScratchpad;
  readonly #maxReplyContentBytes: number;

  constructor(session: SessionScratchpad, options: { maxReplyContentBytes: number }) {
    this.#session = session;
    this.#maxReplyContentBytes = options.maxReplyContentBytes;
  }

  /** True for `scratchpad://` URIs: this class answers for them, whatever session they name. */
  owns(uri: string): boolean {
    return uri.startsWith(`${ENTRY_URI_SCHEME}://`);
  }

  /**
   * One page of the session's entries, by name. The cursor is the library's listing cursor (opaque, keyset: no
   * entry is repeated or skipped as entries change between pages); one it did not make is `InvalidParams`.
   */
  async list(cursor: string | undefined): Promise<ListResourcesResult> {
    const page = await this.#session
      .list({ limit: RESOURCE_PAGE_SIZE, ...(cursor === undefined ? {} : { cursor }) })
      .catch((error: unknown) => {
        if (ScratchpadError.hasCode(error, 'INVALID_ARGUMENT'))
          throw new McpError(ErrorCode.InvalidParams, formatError(error));
        throw error;
      });
    return {
      resources: page.entries.map((entry) => this.#describe(entry)),
      ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
    };
  }

  templates(): ListResourceTemplatesResult {
    return {
      resourceTemplates: [
        {
          uriTemplate: entryUriTemplate(this.#session.id),
          name: 'scratchpad entry',
          description:
            'An entry of this session; add ?lines=A:B, ?head=N, ?tail=N or ?offset=N&limit=N to read a slice.',
        },
      ],
    };
  }

  async read(uri: string): Promise<ReadResourceResult> {
    try {
      const { session, name, slice } = parseEntryUri(uri);
      if (session !== this.#session.id) throw notFound(uri, this.#session.id);
      const result = await this.#session
        .read(name, slice, { maxBytes: this.#maxReplyContentBytes })
        .catch((error) => {
          throw withSliceHint(error, this.#session.id, name);
        });
      const mimeType = result.entry.mediaType.split(';')[0];
      return {
        contents: [
          result.encoding === 'utf8'
            ? { uri, mimeType, text: await this.#session.scratchpad.redactor.redact(result.content) }
            : { uri, mimeType, blob: result.content },
        ],
      };
    } catch (error) {
      // Resource reads have no error result: a protocol error with our message and hint is the only channel.
      // A missing resource and the caller's other mistakes are InvalidParams (SEP-2164, the SDK's own answer).
      if (ScratchpadError.isInstance(error)) {
        throw new McpError(
          error.category === 'user' ? ErrorCode.InvalidParams : ErrorCode.InternalError,
          formatError(error),
          errorPayload(error),
        );
      }
      throw error;
    }
  }

  /** True for the reference of this session's template: {@link complete} answers for it. */
  completes(ref: { type: string; uri?: string }): boolean {
    return ref.type === 'ref/resource' && ref.uri === entryUriTemplate(this.#session.id);
  }

  /** Completes the `name` variable of this session's template; undefined for any other reference. */
  async complete(
    ref: { type: string; uri?: string },
    argument: { name: string; value: string },
  ): Promise<CompleteResult | undefined> {
    if (!this.completes(ref)) return undefined;
    if (argument.name !== 'name') return { completion: { values: [] } };
    const page = await this.#session.list({ prefix: argument.value, limit: COMPLETION_LIMIT });
    return {
      completion: {
        values: page.entries.map((entry) => entry.name),
        hasMore: page.nextCursor !== undefined,
      },
    };
  }

  #describe(entry: Entry): ListResourcesResult['resources'][number] {
    return {
      uri: entryUri(this.#session.id, entry.name),
      name: entry.name,
      mimeType: entry.mediaType.split(';')[0],
      size: entry.bytes,
      description:
        entry.kind === 'text'
          ? `${entry.chars.toLocaleString('en-US')} chars, ${entry.lines.toLocaleString('en-US')} lines${entry.source ? `, from ${entry.source}` : ''}`
          : `${formatBytes(entry.bytes)} binary${entry.source ? `, from ${entry.source}` : ''}`,
    };
  }
}

/** The same answer for any other session, whether it exists or not. */
function notFound(uri: string, session: string): ScratchpadError {
  return new ScratchpadError('ENTRY_NOT_FOUND', `Resource not found: ${uri}.`, {
    hint: `This server serves one session; its entries are ${entryUriTemplate(session)} (see resources/list).`,
  });
}

/** A too-large read's hint, as the URI of the slice that fits. */
function withSliceHint(error: unknown, session: string, name: string): unknown {
  if (!ScratchpadError.hasCode(error, 'CONTENT_TOO_LARGE') || typeof error.details.fit !== 'number')
    return error;
  const { start, fit, unit } = error.details as { start: number; fit: number; unit: string };
  return new ScratchpadError('CONTENT_TOO_LARGE', error.message, {
    hint: `Read it in slices of at most ${fit.toLocaleString('en-US')} ${unit}: ${entryUri(session, name)}?offset=${start}&limit=${fit}, then on from there.`,
    details: error.details,
    cause: error,
  });
}
