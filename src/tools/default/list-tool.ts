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
  after: z
    .string()
    .max(128)
    .optional()
    .describe('Continue after this name: pass the "after" value the previous answer gave.'),
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
      const matching = (
        await session.list({
          ...(input.prefix === undefined ? {} : { prefix: input.prefix }),
          ...(input.turn === undefined ? {} : { turn: input.turn }),
        })
      ).filter((entry) => input.after === undefined || entry.name > input.after);
      const limit = input.limit ?? DEFAULT_LIST_LIMIT;
      const asked = matching.slice(0, limit);
      if (asked.length === 0) return { text: '(no entries)', data: { ok: true, entries: [] } };
      const allRows = asked.map((entry) => {
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
      const entries = asked.slice(0, rows.length);
      const remaining = matching.length - entries.length;
      const last = entries.at(-1)?.name;
      const more =
        remaining > 0 && last !== undefined
          ? `\n… ${formatCount(remaining)} more: call ${TOOL_NAMES.list} with after: ${JSON.stringify(last)} to continue.`
          : '';
      return {
        text: `${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}${input.after === undefined ? '' : ` after ${JSON.stringify(input.after)}`}:\n${rows.join('\n')}${more}`,
        data: {
          ok: true,
          ...(remaining > 0 && last !== undefined ? { remaining, next: { after: last } } : {}),
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
