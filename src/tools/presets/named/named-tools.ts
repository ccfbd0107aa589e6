import { z } from 'zod';
import { collectAsync } from '../../../core/collect-async.js';
import { ScratchpadError } from '../../../core/errors.js';
import { formatCount } from '../../../core/format.js';
import { readForReply } from '../../read-for-reply.js';
import { defineTool, type ScratchpadTool } from '../../tool.js';
import { TOOL_NAMES } from '../../tool-names.js';

/** Seed 004 defaults. */
const NAMED_READ_LIMIT = 30_000;
const NAMED_MAX_MATCHES = 100;

const writeParameters = z.object({
  name: z.string().describe('Name for the entry'),
  content: z.string().describe('The content to store'),
});
const readParameters = z.object({
  name: z.string().describe('The entry name'),
  offset: z.number().int().min(0).default(0).describe('Character offset to start reading from (default: 0)'),
  limit: z
    .number()
    .int()
    .min(1)
    .default(NAMED_READ_LIMIT)
    .describe(`Maximum characters to return (default: ${NAMED_READ_LIMIT})`),
  regex: z
    .string()
    .optional()
    .describe(`Search the entry and return matching lines (max ${NAMED_MAX_MATCHES})`),
});
const editParameters = z.object({
  name: z.string().describe('The entry name'),
  content: z.string().optional().describe('Full replacement (mutually exclusive with old/new)'),
  old_string: z.string().optional().describe('String to find'),
  new_string: z.string().optional().describe('Replacement string'),
  replace_all: z.boolean().default(false).describe('Replace all occurrences (default: false)'),
});
const listParameters = z.object({});
const deleteParameters = z.object({ name: z.string().describe('The entry name to delete') });

/** `scratchpad_write` (seed 004): store content; an existing name is overwritten. */
export function createNamedWriteTool(): ScratchpadTool<z.infer<typeof writeParameters>> {
  return defineTool({
    name: TOOL_NAMES.write,
    description: 'Store content in the scratchpad. If the name already exists, the content is overwritten.',
    parameters: writeParameters,
    async execute({ name, content }, { session, turn, step }) {
      const result = await session.write(name, content, {
        source: TOOL_NAMES.write,
        ...(turn === undefined ? {} : { turn }),
        ...(step === undefined ? {} : { step }),
      });
      const size = `${formatCount(result.entry.chars)} characters`;
      return {
        text: result.created
          ? `Stored "${name}" in the scratchpad (${size}).`
          : `Overwrote "${name}" in the scratchpad (${size}; it had ${formatCount(result.previous?.chars ?? 0)}).`,
      };
    },
  });
}

/** `scratchpad_read` (seed 004): offset/limit in characters, or regex → matching lines (at most 100). */
export function createNamedReadTool(): ScratchpadTool<z.infer<typeof readParameters>> {
  return defineTool({
    name: TOOL_NAMES.read,
    description: 'Read or search a scratchpad entry by name.',
    parameters: readParameters,
    async execute({ name, offset, limit, regex }, context) {
      const { session } = context;
      if (regex !== undefined) {
        const result = await session.grep(name, { pattern: regex, maxMatches: NAMED_MAX_MATCHES });
        if (result.total === 0) return { text: `No lines in "${name}" match /${regex}/.` };
        const lines = result.matches.map((match) => `${match.line}: ${match.text}`).join('\n');
        const more =
          result.total > result.matches.length
            ? `\n[${formatCount(result.total)} lines match; showing the first ${NAMED_MAX_MATCHES}]`
            : '';
        return { text: `${lines}${more}` };
      }
      const result = await readForReply(
        context,
        name,
        { type: 'offset', offset, limit },
        {},
        (start, count) => `${TOOL_NAMES.read} ${JSON.stringify({ name, offset: start, limit: count })}`,
      );
      const { start, end, total } = result.location;
      const more =
        end < total
          ? `\n\n[Showing characters ${formatCount(start)}–${formatCount(end)} of ${formatCount(total)}. Use offset=${end} to read more.]`
          : '';
      return { text: `${result.content}${more}` };
    },
  });
}

/** `scratchpad_edit` (seed 004): full overwrite with content, or old_string/new_string with replace_all. */
export function createNamedEditTool(): ScratchpadTool<z.infer<typeof editParameters>> {
  return defineTool({
    name: TOOL_NAMES.edit,
    description:
      'Edit a scratchpad entry in place. Provide content for a full overwrite, or old_string/new_string for targeted replacement.',
    parameters: editParameters,
    async execute({ name, content, old_string, new_string, replace_all }, { session }) {
      const targeted = old_string !== undefined || new_string !== undefined;
      if (content !== undefined && targeted) {
        throw new ScratchpadError(
          'INVALID_ARGUMENT',
          'content is mutually exclusive with old_string/new_string.',
          {
            hint: 'Give content to overwrite the entry, or old_string and new_string to replace part of it.',
          },
        );
      }
      if (content !== undefined) {
        const current = await session.get(name);
        await session.write(name, content, { ifVersion: current.version });
        return { text: `Overwrote "${name}" (${formatCount([...content].length)} characters).` };
      }
      if (old_string === undefined || new_string === undefined) {
        throw new ScratchpadError('INVALID_ARGUMENT', 'Provide content, or both old_string and new_string.');
      }
      const result = await session.edit(name, {
        oldText: old_string,
        newText: new_string,
        replaceAll: replace_all,
      });
      return {
        text: `Edited "${name}": replaced ${result.replacements} occurrence${result.replacements === 1 ? '' : 's'}.`,
      };
    },
  });
}

/** `scratchpad_list` (seed 004): name, size and creation time of every entry. */
export function createNamedListTool(): ScratchpadTool<z.infer<typeof listParameters>> {
  return defineTool({
    name: TOOL_NAMES.list,
    description: 'List all scratchpad entries with their name, size, and creation time.',
    parameters: listParameters,
    async execute(_input, { session }) {
      const entries = await collectAsync(session.entries({ orderBy: 'createdAt' }));
      if (entries.length === 0) return { text: 'The scratchpad is empty.' };
      return {
        text: entries
          .map(
            (entry) =>
              `${entry.name} (${entry.kind === 'text' ? `${formatCount(entry.chars)} characters` : `${formatCount(entry.bytes)} bytes, binary`}, created ${new Date(entry.createdAt).toISOString()})`,
          )
          .join('\n'),
      };
    },
  });
}

/** `scratchpad_delete` (seed 004). */
export function createNamedDeleteTool(): ScratchpadTool<z.infer<typeof deleteParameters>> {
  return defineTool({
    name: TOOL_NAMES.delete,
    description: 'Delete a scratchpad entry by name.',
    parameters: deleteParameters,
    async execute({ name }, { session }) {
      await session.delete(name);
      return { text: `Deleted "${name}" from the scratchpad.` };
    },
  });
}
