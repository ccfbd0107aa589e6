import { ScratchpadError } from '../core/errors.js';
import type { Scratchpad } from '../service/scratchpad.js';
import type { ApiRequest, ApiRoute } from './api-route.js';
import type { GrepReply, PageLine } from './api-types.js';
import { detailEntry } from './entry-summary.js';

/** Most raw bytes of content one page of lines carries (JSON escaping at most sextuples it: < 1 MB). */
const PAGE_BYTES = 128 * 1024;
/** Most lines one page asks for. */
const MAX_PAGE_LINES = 1000;
/** A line longer than this (in bytes) is sent clipped, with where it starts so the rest can be read by chars. */
const MAX_LINE_BYTES = 4096;
const CLIPPED_LINE_CHARS = 1024;
/** Most bytes one hex slice covers (128 KiB of hex). */
const MAX_HEX_BYTES = 64 * 1024;
/** Most characters one text slice covers (and at most {@link PAGE_BYTES} of them). */
const MAX_SLICE_CHARS = 64 * 1024;
const MAX_GREP_MATCHES = 500;
const GREP_LINE_CHARS = 200;

/** An entry's metadata, its content by lines, characters or bytes, grep, and pin/delete behind a confirmation. */
export function entryRoutes(scratchpad: Scratchpad): ApiRoute[] {
  const base = '/api/sessions/:session/entries/:id';
  return [
    {
      method: 'GET',
      pattern: base,
      async handle({ params }) {
        const { session, ref } = target(params);
        return { body: { entry: detailEntry(await scratchpad.get(session, ref)) } };
      },
    },
    {
      method: 'GET',
      pattern: `${base}/lines`,
      async handle({ params, query }) {
        const { session, ref } = target(params);
        const entry = await scratchpad.get(session, ref);
        if (entry.kind !== 'text') {
          throw new ScratchpadError('NOT_TEXT', `"${entry.name}" is binary: it has no lines.`, {
            hint: 'Read it as hex with /bytes.',
          });
        }
        const start = query.integer('start', 1, 1, Math.max(1, entry.lines));
        const count = query.integer('count', 200, 1, MAX_PAGE_LINES);
        const last = Math.min(entry.lines, start + count - 1);
        const lines = entry.lines === 0 ? [] : await readPage(scratchpad, session, ref, start, last);
        return { body: { id: entry.id, version: entry.version, total: entry.lines, start, lines } };
      },
    },
    {
      method: 'GET',
      pattern: `${base}/chars`,
      async handle({ params, query }) {
        const { session, ref } = target(params);
        const entry = await scratchpad.get(session, ref);
        if (entry.kind !== 'text') {
          throw new ScratchpadError('NOT_TEXT', `"${entry.name}" is binary: read it as hex with /bytes.`);
        }
        const offset = query.integer('offset', 0, 0, entry.chars);
        const limit = query.integer('limit', 4096, 0, MAX_SLICE_CHARS);
        const read = await scratchpad.read(
          session,
          ref,
          { type: 'offset', offset, limit: Math.min(limit, entry.chars - offset) },
          { maxBytes: PAGE_BYTES },
        );
        return { body: { id: read.entry.id, content: read.content, location: read.location } };
      },
    },
    {
      method: 'GET',
      pattern: `${base}/bytes`,
      async handle({ params, query }) {
        const { session, ref } = target(params);
        const entry = await scratchpad.get(session, ref);
        if (entry.kind !== 'binary') {
          throw new ScratchpadError(
            'INVALID_ARGUMENT',
            `"${entry.name}" is text: read it by lines or chars.`,
          );
        }
        const offset = query.integer('offset', 0, 0, Math.max(0, entry.bytes));
        const limit = query.integer('limit', 4096, 0, MAX_HEX_BYTES);
        const read = await scratchpad.read(
          session,
          ref,
          { type: 'offset', offset, limit: Math.min(limit, entry.bytes - offset) },
          { encoding: 'hex', maxBytes: MAX_HEX_BYTES * 2 },
        );
        return { body: { id: entry.id, offset, hex: read.content, total: entry.bytes } };
      },
    },
    {
      method: 'GET',
      pattern: `${base}/grep`,
      async handle({ params, query }) {
        const { session, ref } = target(params);
        const result = await scratchpad.grep(session, ref, {
          pattern: query.requiredText('pattern', 1000),
          ignoreCase: query.flag('ignoreCase', false),
          maxMatches: query.integer('max', 200, 1, MAX_GREP_MATCHES),
          maxLineChars: GREP_LINE_CHARS,
          stopAtMax: true,
        });
        return {
          body: {
            pattern: result.pattern,
            matches: result.matches,
            total: result.total,
            complete: result.complete,
            description: result.description,
          } satisfies GrepReply,
        };
      },
    },
    {
      method: 'POST',
      pattern: `${base}/pin`,
      async handle(request) {
        const { session, ref } = target(request.params);
        const body = confirmedBody(request, 'pin');
        if (typeof body.pinned !== 'boolean') {
          throw new ScratchpadError('INVALID_ARGUMENT', 'The body needs "pinned": true or false.');
        }
        const entry = await scratchpad.update(session, ref, {
          pinned: body.pinned,
          ...versionOf(body),
        });
        return { body: { entry: detailEntry(entry) } };
      },
    },
    {
      method: 'DELETE',
      pattern: base,
      async handle(request) {
        const { session, ref } = target(request.params);
        const body = confirmedBody(request, 'delete');
        const entry = await scratchpad.delete(session, ref, versionOf(body));
        return { body: { deleted: detailEntry(entry) } };
      },
    },
  ];
}

function target(params: Record<string, string>): { session: string; ref: { id: string } } {
  return { session: params.session as string, ref: { id: params.id as string } };
}

/** The JSON body of a change, which must say `"confirm": true`: the API never changes anything by accident. */
function confirmedBody(request: ApiRequest, action: string): Record<string, unknown> {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ScratchpadError('INVALID_ARGUMENT', `To ${action} an entry, send a JSON object body.`, {
      hint: 'Send {"confirm": true, "ifVersion": N}.',
    });
  }
  const record = body as Record<string, unknown>;
  if (record.confirm !== true) {
    throw new ScratchpadError('INVALID_ARGUMENT', `To ${action} an entry, confirm it with "confirm": true.`, {
      hint: 'Add "ifVersion" with the version you looked at, so a newer version is never changed by mistake.',
    });
  }
  return record;
}

function versionOf(body: Record<string, unknown>): { ifVersion?: number } {
  if (body.ifVersion === undefined) return {};
  if (!Number.isSafeInteger(body.ifVersion) || (body.ifVersion as number) < 1) {
    throw new ScratchpadError('INVALID_ARGUMENT', '"ifVersion" must be a positive integer.');
  }
  return { ifVersion: body.ifVersion as number };
}

/**
 * Lines `start..last`, bounded: one read of at most {@link PAGE_BYTES}; when the lines are larger than that, line
 * by line, each at most {@link MAX_LINE_BYTES} (longer ones clipped) until the page's bytes are used up. The page
 * may end before `last`; the client asks again from where it ended.
 */
async function readPage(
  scratchpad: Scratchpad,
  session: string,
  ref: { id: string },
  start: number,
  last: number,
): Promise<PageLine[]> {
  try {
    const read = await scratchpad.read(
      session,
      ref,
      { type: 'lines', start, end: last },
      { maxBytes: PAGE_BYTES },
    );
    const texts = read.content.split('\n');
    if (read.content.endsWith('\n')) texts.pop();
    return texts.map((text, index) => ({ line: start + index, text }));
  } catch (error) {
    if (!ScratchpadError.hasCode(error, 'CONTENT_TOO_LARGE')) throw error;
  }
  const lines: PageLine[] = [];
  let budget = PAGE_BYTES;
  for (let line = start; line <= last && budget > 0; line += 1) {
    const page = await readLine(scratchpad, session, ref, line);
    budget -= Buffer.byteLength(page.text);
    lines.push(page);
  }
  return lines;
}

async function readLine(
  scratchpad: Scratchpad,
  session: string,
  ref: { id: string },
  line: number,
): Promise<PageLine> {
  try {
    const read = await scratchpad.read(
      session,
      ref,
      { type: 'lines', start: line, end: line },
      { maxBytes: MAX_LINE_BYTES },
    );
    return { line, text: read.content.replace(/\n$/, '') };
  } catch (error) {
    if (!ScratchpadError.hasCode(error, 'CONTENT_TOO_LARGE')) throw error;
    const charStart = Number(error.details.start);
    const read = await scratchpad.read(session, ref, {
      type: 'offset',
      offset: charStart,
      limit: CLIPPED_LINE_CHARS,
    });
    return { line, text: read.content.split('\n')[0] as string, clipped: true, charStart };
  }
}
