import { z } from 'zod';
import { formatBytes, formatCount } from '../../core/format.js';
import { defineTool, type ScratchpadTool } from '../tool.js';
import { TOOL_NAMES } from '../tool-names.js';

const parameters = z.object({
  prefix: z.string().optional().describe('Only names starting with this.'),
  turn: z.string().optional().describe('Only entries written during this turn.'),
});

/** `scratchpad_list`: the session's entries with sizes and ages. */
export function createListTool(
  options: { now?: () => number } = {},
): ScratchpadTool<z.infer<typeof parameters>> {
  const now = options.now ?? Date.now;
  return defineTool({
    name: TOOL_NAMES.list,
    description:
      'List the entries in the scratchpad (name, size, lines, when written). Call it at the start of a session to see what is already stored.',
    parameters,
    async execute(input, { session }) {
      const entries = await session.list({
        ...(input.prefix === undefined ? {} : { prefix: input.prefix }),
        ...(input.turn === undefined ? {} : { turn: input.turn }),
      });
      if (entries.length === 0) return { text: '(no entries)', data: { ok: true, entries: [] } };
      const rows = entries.map((entry) => {
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
      return {
        text: `${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}:\n${rows.join('\n')}`,
        data: {
          ok: true,
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
