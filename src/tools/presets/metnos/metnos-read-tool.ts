import { z } from 'zod';
import { ScratchpadError } from '../../../core/errors.js';
import { formatError } from '../../../core/format-error.js';
import type { ReadSlice } from '../../../core/slice.js';
import { readForReply } from '../../read-for-reply.js';
import {
  defineTool,
  errorOutput,
  type JsonSchema,
  type ScratchpadTool,
  type ToolOutput,
} from '../../tool.js';
import { TOOL_NAMES } from '../../tool-names.js';

/** The seed 000 schema of `scratchpad_read`, verbatim. */
export const METNOS_READ_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['scratchpad_id'],
  properties: {
    scratchpad_id: {
      type: 'string',
      description: "Id obtained from the 'scratchpad_id' field of a previous observation.",
    },
    mode: { type: 'string', enum: ['full', 'head', 'tail', 'range'], default: 'head' },
    n: { type: 'integer', description: 'For mode head/tail: number of characters to read. Default 2000.' },
    start: { type: 'integer', description: 'For mode range: start index.' },
    end: { type: 'integer', description: 'For mode range: end index (exclusive).' },
  },
};

/** The seed 000 description, verbatim. */
export const METNOS_READ_DESCRIPTION = 'Reads from the scratchpad an observation previously saved...';

const parameters = z.object({
  scratchpad_id: z.string(),
  mode: z.enum(['full', 'head', 'tail', 'range']).default('head'),
  n: z.number().int().min(0).optional(),
  start: z.number().int().optional(),
  end: z.number().int().optional(),
});

/**
 * Seed 000's builtin `scratchpad_read{scratchpad_id, mode, n=2000, start, end}`. It answers like a Metnos
 * executor, `{ok, content, metadata}` / `{ok: false, error}`. When the agent loop passes a turn, only entries of
 * that turn are readable (seed 000 §6, isolation between turns). `range` indexes may be negative (from the end),
 * as in the Python reference's slicing.
 */
export function createMetnosReadTool(): ScratchpadTool<z.infer<typeof parameters>> {
  return defineTool({
    name: TOOL_NAMES.read,
    description: METNOS_READ_DESCRIPTION,
    parameters,
    inputSchema: METNOS_READ_SCHEMA,
    async execute(input, context): Promise<ToolOutput> {
      const { session, turn } = context;
      try {
        const entry = await session.get({ id: input.scratchpad_id });
        if (turn !== undefined && entry.turn !== null && entry.turn !== turn) {
          throw new ScratchpadError(
            'ENTRY_NOT_FOUND',
            `No scratchpad entry ${input.scratchpad_id} in the current turn.`,
            {
              hint: "Use the 'scratchpad_id' of an observation from this turn.",
            },
          );
        }
        const total = entry.kind === 'text' ? entry.chars : entry.bytes;
        const result = await readForReply(
          context,
          { id: input.scratchpad_id },
          toSlice(input, total),
          {},
          (start, count) =>
            `${TOOL_NAMES.read} ${JSON.stringify({ scratchpad_id: entry.id, mode: 'range', start, end: start + count })}`,
        );
        const observation = {
          ok: true,
          content: result.content,
          metadata: {
            scratchpad_id: entry.id,
            mode: input.mode,
            start: result.location.start,
            end: result.location.end,
            [entry.kind === 'text' ? 'total_chars' : 'total_bytes']: total,
            kind: entry.kind,
            ...(entry.kind === 'binary' ? { encoding: result.encoding } : {}),
          },
        };
        return { text: JSON.stringify(observation), data: observation };
      } catch (error) {
        if (!ScratchpadError.isInstance(error)) throw error;
        const failure = { ok: false, error: formatError(error) };
        return { ...errorOutput(error), text: JSON.stringify(failure), data: failure };
      }
    },
  });
}

function toSlice(input: z.infer<typeof parameters>, total: number): ReadSlice {
  const n = input.n ?? 2000;
  switch (input.mode) {
    case 'full':
      return { type: 'full' };
    case 'head':
      return { type: 'head', count: n };
    case 'tail':
      return { type: 'tail', count: n };
    case 'range': {
      const start = pythonIndex(input.start ?? 0, total);
      const end = Math.max(start, pythonIndex(input.end ?? total, total));
      return { type: 'range', start, end };
    }
  }
}

function pythonIndex(index: number, total: number): number {
  return index < 0 ? Math.max(0, total + index) : index;
}
