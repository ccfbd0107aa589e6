import { z } from 'zod';
import { defineTool, type ScratchpadTool } from '../tool.js';
import { TOOL_NAMES } from '../tool-names.js';
import { describeEntry } from './render.js';

const parameters = z.object({
  name: z.string().describe('Entry name to delete.'),
  if_version: z.number().int().min(1).optional().describe('Only delete if the entry is at this version.'),
});

/** `scratchpad_delete`. */
export function createDeleteTool(): ScratchpadTool<z.infer<typeof parameters>> {
  return defineTool({
    name: TOOL_NAMES.delete,
    description: 'Delete a scratchpad entry you no longer need.',
    parameters,
    async execute(input, { session }) {
      const entry = await session.delete(
        input.name,
        input.if_version === undefined ? {} : { ifVersion: input.if_version },
      );
      return { text: `Deleted ${describeEntry(entry)}.`, data: { ok: true, name: entry.name } };
    },
  });
}
