import { z } from 'zod';
import type { SessionNotes } from '../../../context/notes/session-notes.js';
import type { SessionScratchpad } from '../../../service/scratchpad.js';
import { defineTool, type JsonSchema, type ScratchpadTool } from '../../tool.js';

/**
 * Seed 001's tool name. It contains a dot, which OpenAI's and Anthropic's tool-name rules (`[a-zA-Z0-9_-]`) do not
 * allow: provider adapters must map it to a compatible name and back.
 */
export const SESSION_SCRATCHPAD_TOOL_NAME = 'session.scratchpad';

/** Seed 001's tool description, verbatim. */
export const SESSION_SCRATCHPAD_DESCRIPTION =
  'Persist important working state (plans, findings, decisions) that survives context compaction. Content is prepended to each message you receive.';

/** Seed 001's parameters as the exact JSON Schema shown to the model. */
export const SESSION_SCRATCHPAD_INPUT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    content: {
      type: 'string',
      description: 'The scratchpad content to save',
    },
    mode: {
      type: 'string',
      enum: ['replace', 'append'],
      default: 'replace',
      description: 'replace: overwrite entire scratchpad. append: add to existing content.',
    },
  },
  required: ['content'],
};

const parameters = z.object({
  content: z.string().describe('The scratchpad content to save'),
  mode: z
    .enum(['replace', 'append'])
    .default('replace')
    .describe('replace: overwrite entire scratchpad. append: add to existing content.'),
});

/** Input of the `session.scratchpad` tool after validation (`mode` defaults to `replace`). */
export type SessionScratchpadInput = z.output<typeof parameters>;

/**
 * The `session.scratchpad` tool. It answers with seed 001's sentences; an append over budget is an error result
 * (`isError`) whose text is exactly the seed's rejection, and it changes nothing.
 */
export function createSessionScratchpadTool(options: {
  notesFor: (session: SessionScratchpad) => SessionNotes;
}): ScratchpadTool<SessionScratchpadInput> {
  return defineTool({
    name: SESSION_SCRATCHPAD_TOOL_NAME,
    description: SESSION_SCRATCHPAD_DESCRIPTION,
    parameters,
    inputSchema: SESSION_SCRATCHPAD_INPUT_SCHEMA,
    async execute(input, context) {
      const result = await options.notesFor(context.session).set(input.content, input.mode);
      const rejected = result.outcome === 'rejected';
      return {
        text: result.message,
        ...(rejected ? { isError: true } : {}),
        data: {
          ok: !rejected,
          outcome: result.outcome,
          tokens: result.tokens,
          budget: result.budget,
          version: result.version,
          ...(rejected ? { error: 'BUDGET_EXCEEDED' } : {}),
          ...(result.originalTokens === undefined ? {} : { originalTokens: result.originalTokens }),
          ...(result.appendTokens === undefined ? {} : { appendTokens: result.appendTokens }),
          ...(result.previous ? { previous: result.previous } : {}),
        },
      };
    },
  });
}
