import { z } from 'zod';
import { ScratchpadError } from '../../core/errors.js';
import { formatBytes } from '../../core/format.js';
import { parseLineRange } from '../../core/line-range.js';
import type { ReadSlice } from '../../core/slice.js';
import type { EntryRef } from '../../service/types.js';
import { readForReply } from '../read-for-reply.js';
import { defineTool, type ScratchpadTool } from '../tool.js';
import { TOOL_NAMES } from '../tool-names.js';
import { grepWithinCap } from './capped-grep.js';
import { readWithinCap } from './capped-read.js';
import { renderGrep, renderRead } from './render.js';

/** Characters returned when no slice is given. */
export const DEFAULT_READ_LIMIT = 10_000;

const parameters = z.object({
  name: z.string().optional().describe('Entry name (from a write, a list, or an offload notice).'),
  id: z
    .string()
    .optional()
    .describe('Entry id (16 hex characters) from an offload notice; use instead of name.'),
  offset: z.number().int().min(0).optional().describe('Character offset to start at (default 0).'),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Characters to return from offset (default ${DEFAULT_READ_LIMIT}).`),
  lines: z
    .string()
    .optional()
    .describe(
      'Line range "A:B", 1-based and inclusive; negative counts from the end ("-50:" = the last 50 lines, "120:" = from line 120).',
    ),
  head: z.number().int().min(0).optional().describe('The first N characters.'),
  tail: z.number().int().min(0).optional().describe('The last N characters.'),
  regex: z
    .string()
    .optional()
    .describe('Return the lines matching this regular expression (RE2 syntax), with line numbers.'),
  context: z
    .number()
    .int()
    .min(0)
    .max(50)
    .optional()
    .describe('With regex: lines of context around each match.'),
  max_matches: z
    .number()
    .int()
    .min(1)
    .max(10_000)
    .optional()
    .describe('With regex: most matching lines to return (default 100).'),
  ignore_case: z.boolean().optional().describe('With regex: case-insensitive.'),
  encoding: z
    .enum(['base64', 'hex'])
    .optional()
    .describe('Binary entries only: how to encode the bytes (default base64).'),
});

type ReadInput = z.infer<typeof parameters>;

/** Options for {@link createReadTool}. */
export interface ReadToolOptions {
  /** Characters returned when no slice is given (default {@link DEFAULT_READ_LIMIT}). */
  defaultLimit?: number;
  /**
   * Most bytes one answer carries: a larger slice is cut (whole lines for a line range) and the answer names the
   * call that continues; a longer grep answer keeps the first matches that fit. Absent: a read returns what was
   * asked, bounded only by the context's `maxReplyBytes` (the `default` preset sets 32 KB).
   */
  maxAnswerBytes?: number;
}

/** `scratchpad_read`: any slice of an entry (offset/limit, lines, head, tail, regex with context). */
export function createReadTool(options: ReadToolOptions = {}): ScratchpadTool<ReadInput> {
  const defaultLimit = options.defaultLimit ?? DEFAULT_READ_LIMIT;
  const cap = options.maxAnswerBytes;
  return defineTool({
    name: TOOL_NAMES.read,
    description:
      'Read part of a scratchpad entry (a saved note or a large tool result that was stored instead of shown). ' +
      'Pick the slice you need: lines "A:B" to read a region, regex to find lines (with line numbers) before reading around them, ' +
      'head/tail for the start or the end, offset+limit to page through. Every result says where the slice is and how to continue. ' +
      'An entry lives as long as its notice says (a TTL, or this session); reading one that expired says so.',
    parameters,
    async execute(input, context) {
      const { session } = context;
      const ref = entryRef(input);
      if (input.regex !== undefined) {
        const result = await session.grep(ref, {
          pattern: input.regex,
          ...(input.ignore_case === undefined ? {} : { ignoreCase: input.ignore_case }),
          ...(input.max_matches === undefined ? {} : { maxMatches: input.max_matches }),
          ...(input.context === undefined ? {} : { context: input.context }),
        });
        const shown = cap === undefined ? result : grepWithinCap(result, cap);
        return {
          text: renderGrep(shown, TOOL_NAMES.read),
          data: {
            ok: true,
            name: result.entry.name,
            total: result.total,
            matches: shown.matches.map((match) => ({ line: match.line, text: match.text })),
          },
        };
      }
      if (cap !== undefined) {
        const { result, next } = await readWithinCap(
          context,
          ref,
          toSlice(input, defaultLimit),
          input.encoding ? { encoding: input.encoding } : {},
          cap,
        );
        const call = next && `${TOOL_NAMES.read} ${JSON.stringify({ ...refArguments(ref), ...next })}`;
        return {
          text: call
            ? `${renderRead({ ...result, complete: true }, TOOL_NAMES.read)}\n[cut to fit one answer (${formatBytes(cap)}); the rest of what you asked for: ${call}]`
            : renderRead(result, TOOL_NAMES.read),
          data: {
            ok: true,
            name: result.entry.name,
            start: result.location.start,
            end: result.location.end,
            total: result.location.total,
            ...(next ? { next } : {}),
          },
        };
      }
      const result = await readForReply(
        context,
        ref,
        toSlice(input, defaultLimit),
        input.encoding ? { encoding: input.encoding } : {},
        (offset, limit) => `${TOOL_NAMES.read} ${JSON.stringify({ ...refArguments(ref), offset, limit })}`,
      );
      return {
        text: renderRead(result, TOOL_NAMES.read),
        data: {
          ok: true,
          name: result.entry.name,
          start: result.location.start,
          end: result.location.end,
          total: result.location.total,
        },
      };
    },
  });
}

/** The arguments that name the entry in a call the answer suggests. */
function refArguments(ref: EntryRef): { name: string } | { id: string } {
  return typeof ref === 'string' ? { name: ref } : { id: ref.id };
}

function entryRef(input: ReadInput): EntryRef {
  if (input.name !== undefined && input.id !== undefined) {
    throw new ScratchpadError('INVALID_ARGUMENT', 'Give either name or id, not both.', {
      hint: 'Use the name when you know it.',
    });
  }
  if (input.id !== undefined) return { id: input.id };
  if (input.name !== undefined) return input.name;
  throw new ScratchpadError('INVALID_ARGUMENT', 'Say which entry to read: give name (or id).', {
    hint: `List the entries with ${TOOL_NAMES.list}.`,
  });
}

function toSlice(input: ReadInput, defaultLimit: number): ReadSlice {
  const given = [
    input.lines !== undefined,
    input.head !== undefined,
    input.tail !== undefined,
    input.offset !== undefined || input.limit !== undefined,
  ];
  if (given.filter(Boolean).length > 1) {
    throw new ScratchpadError(
      'INVALID_ARGUMENT',
      'Give only one way to slice: lines, head, tail, or offset/limit (or regex).',
      {
        hint: 'Example: {"name": "log", "lines": "100:150"}.',
      },
    );
  }
  if (input.lines !== undefined) return parseLines(input.lines);
  if (input.head !== undefined) return { type: 'head', count: input.head };
  if (input.tail !== undefined) return { type: 'tail', count: input.tail };
  return { type: 'offset', offset: input.offset ?? 0, limit: input.limit ?? defaultLimit };
}

/** Parses `"A:B"`, `"A:"`, `":B"`, `"A"` (one line), `"-50:"` into a line slice ({@link parseLineRange}). */
export function parseLines(text: string): ReadSlice {
  return { type: 'lines', ...parseLineRange(text) };
}
