import { z } from 'zod';
import { ScratchpadError } from '../../core/errors.js';
import { defineTool, type ScratchpadTool } from '../tool.js';
import { TOOL_NAMES } from '../tool-names.js';
import { describeEntry } from './render.js';

const parameters = z.object({
  name: z.string().describe('Entry name.'),
  old_string: z.string().optional().describe('Exact text to find (including whitespace and line breaks).'),
  new_string: z.string().optional().describe('Replacement text ("" deletes old_string).'),
  replace_all: z
    .boolean()
    .optional()
    .describe('Replace every occurrence; otherwise old_string must occur exactly once.'),
  content: z
    .string()
    .optional()
    .describe('Replace the whole content instead (do not combine with old_string/new_string).'),
  if_version: z.number().int().min(0).optional().describe('Only edit if the entry is at this version.'),
});

/** `scratchpad_edit`: targeted old/new replacement, or a whole-content overwrite. */
export function createEditTool(): ScratchpadTool<z.infer<typeof parameters>> {
  return defineTool({
    name: TOOL_NAMES.edit,
    description:
      'Edit a scratchpad entry in place: replace old_string with new_string (exactly one occurrence unless replace_all), ' +
      'or give content to overwrite it whole. Cheaper than rewriting a long entry to change a line.',
    parameters,
    async execute(input, { session }) {
      const targeted = input.old_string !== undefined || input.new_string !== undefined;
      if (targeted && input.content !== undefined) {
        throw new ScratchpadError(
          'INVALID_ARGUMENT',
          'Give either content (whole overwrite) or old_string/new_string, not both.',
        );
      }
      if (input.content !== undefined) {
        const current = await session.get(input.name);
        const result = await session.write(input.name, input.content, {
          ifVersion: input.if_version ?? current.version,
        });
        return {
          text: `Overwrote ${describeEntry(result.entry)}.`,
          data: { ok: true, name: input.name, version: result.entry.version },
        };
      }
      if (input.old_string === undefined || input.new_string === undefined) {
        throw new ScratchpadError(
          'INVALID_ARGUMENT',
          'Give old_string and new_string (or content to overwrite the whole entry).',
        );
      }
      const result = await session.edit(input.name, {
        oldText: input.old_string,
        newText: input.new_string,
        ...(input.replace_all === undefined ? {} : { replaceAll: input.replace_all }),
        ...(input.if_version === undefined ? {} : { ifVersion: input.if_version }),
      });
      const where =
        result.lines.length === 1
          ? `line ${result.lines[0]}`
          : `lines ${result.lines.slice(0, 20).join(', ')}`;
      return {
        text: `Replaced ${result.replacements} occurrence${result.replacements === 1 ? '' : 's'} (${where}) in ${describeEntry(result.entry)}.`,
        data: {
          ok: true,
          name: input.name,
          replacements: result.replacements,
          version: result.entry.version,
        },
      };
    },
  });
}
