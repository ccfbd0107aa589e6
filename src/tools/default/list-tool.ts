import { z } from 'zod';
import { formatBytes, formatCount } from '../../core/format.js';
import { defineTool, type ScratchpadTool } from '../tool.js';
import { TOOL_NAMES } from '../tool-names.js';
import { ANSWER_FRAME_BYTES } from './capped-read.js';

/** Entries one answer lists unless the model asks for more, so a large session cannot flood the context. */
export const DEFAULT_LIST_LIMIT = 200;
/** Most entries one answer lists. */
export const MAX_LIST_LIMIT = 1000;

const parameters = z.object({
  prefix: z.string().optional().describe('Only names starting with this.'),
  turn: z.string().optional().describe('Only entries written during this turn.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_LIST_LIMIT)
    .optional()
    .describe(`At most this many entries (default ${DEFAULT_LIST_LIMIT}, at most ${MAX_LIST_LIMIT}).`),
  cursor: z
    .string()
    .max(400)
    .optional()
    .describe('Continue where the previous answer stopped: pass the "cursor" value it gave, unchanged.'),
});

/** `scratchpad_list`: the session's entries with sizes and ages. */
export function createListTool(
  options: { now?: () => number; maxAnswerBytes?: number } = {},
): ScratchpadTool<z.infer<typeof parameters>> {
  const now = options.now ?? Date.now;
  const cap = options.maxAnswerBytes ?? Number.POSITIVE_INFINITY;
  return defineTool({
    name: TOOL_NAMES.list,
    description:
      'List the entries in the scratchpad (name, size, lines, when written, when each expires; the others are kept for this session). Call it at the start of a session to see what is already stored.',
    parameters,
    async execute(input, { session }) {
      const filters = {
        ...(input.prefix === undefined ? {} : { prefix: input.prefix }),
        ...(input.turn === undefined ? {} : { turn: input.turn }),
      };
      const page = await session.list({
        limit: input.limit ?? DEFAULT_LIST_LIMIT,
        ...filters,
        ...(input.cursor === undefined ? {} : { cursor: input.cursor }),
      });
      if (page.entries.length === 0) return { text: '(no entries)', data: { ok: true, entries: [] } };
      const allRows = page.entries.map((entry) => {
        const size =
          entry.kind === 'text'
            ? `${formatCount(entry.chars)} chars, ${formatCount(entry.lines)} lines`
            : `${formatBytes(entry.bytes)} binary`;
        const flags = [
          entry.pinned ? 'pinned' : '',
          entry.expiresAt === null ? '' : `expires in ${age(entry.expiresAt - now())}`,
          entry.source ? `from ${entry.source}` : '',
        ]
          .filter(Boolean)
          .join(', ');
        return `${entry.name} — ${size}, written ${age(now() - entry.updatedAt)} ago${flags ? `, ${flags}` : ''}`;
      });
      // Within the answer cap: the rows that fit, leaving room for the header and the line that continues.
      const rows: string[] = [];
      let size = ANSWER_FRAME_BYTES;
      for (const row of allRows) {
        size += Buffer.byteLength(row) + 1;
        if (size > cap && rows.length > 0) break;
        rows.push(row);
      }
      const entries = page.entries.slice(0, rows.length);
      // Cut by the cap: the continuation starts after the last row shown (the same listing, that many entries).
      const nextCursor =
        entries.length < page.entries.length
          ? (
              await session.list({
                limit: entries.length,
                ...filters,
                ...(input.cursor === undefined ? {} : { cursor: input.cursor }),
              })
            ).nextCursor
          : page.nextCursor;
      const more =
        nextCursor === undefined
          ? ''
          : `\n… more entries follow: call ${TOOL_NAMES.list} with cursor: ${JSON.stringify(nextCursor)} to continue.`;
      return {
        text: `${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}${input.cursor === undefined ? '' : ' (continued)'}:\n${rows.join('\n')}${more}`,
        data: {
          ok: true,
          ...(nextCursor === undefined ? {} : { next: { cursor: nextCursor } }),
          entries: entries.map((entry) => ({
            name: entry.name,
            id: entry.id,
            kind: entry.kind,
            chars: entry.chars,
            lines: entry.lines,
            bytes: entry.bytes,
          })),
        },
      };
    },
  });
}

function age(milliseconds: number): string {
  const seconds = Math.max(0, Math.round(milliseconds / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)}h`;
  return `${Math.round(seconds / 86_400)}d`;
}
