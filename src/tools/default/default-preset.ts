import { ScratchpadError } from '../../core/errors.js';
import type { Preset } from '../preset.js';
import { TOOL_NAMES } from '../tool-names.js';
import { ANSWER_FRAME_BYTES, DEFAULT_MAX_ANSWER_BYTES } from './capped-read.js';
import { createDeleteTool } from './delete-tool.js';
import { createEditTool } from './edit-tool.js';
import { createListTool } from './list-tool.js';
import { createReadTool } from './read-tool.js';
import { createSearchTool } from './search-tool.js';
import { createWriteTool } from './write-tool.js';

/** System-prompt guidance for the default tools. */
export const DEFAULT_SYSTEM_PROMPT = `## Scratchpad
You have a scratchpad: named entries stored outside your context that survive context compaction and, unless they expire, later sessions.
- Large tool results are saved there automatically; you then see a preview with the entry's name and size. Do not guess what the hidden part says: read it.
- To read: ${TOOL_NAMES.read} with regex to find lines (you get line numbers), then lines "A:B" around them; head/tail for the start or the end; offset+limit to page.
- To keep something (a plan, findings, decisions, intermediate results): ${TOOL_NAMES.write}. Use short names like "plan", "findings-1". Append to logs with mode "append".
- To change part of an entry: ${TOOL_NAMES.edit} with old_string/new_string. ${TOOL_NAMES.list} shows what is stored; ${TOOL_NAMES.search} finds which entry mentions something.
- To pass stored content to another tool without copying it, write {{scratchpad:NAME}} as the argument value (or inside a longer string).
- In an agent turn, {{stepN.field}} passes the result of step N the same way.`;

/** The smallest answer cap: room for an answer's frame and a few lines. */
const MIN_ANSWER_BYTES = 2 * ANSWER_FRAME_BYTES;

/** Options for {@link createDefaultPreset}. */
export interface DefaultPresetOptions {
  /** Characters `scratchpad_read` returns when no slice is given (default 10,000). */
  defaultReadLimit?: number;
  /**
   * Most bytes one tool answer carries (default {@link DEFAULT_MAX_ANSWER_BYTES}, 32 KiB): a longer read is cut
   * and says which call continues (the next lines or offset), a longer grep keeps the first matches that fit, a
   * longer list the first entries (with its `after` to continue).
   */
  maxAnswerBytes?: number;
  now?: () => number;
}

/** The project's own best tool set: the union of the seeds (write, read, edit, list, delete, search). */
export function createDefaultPreset(options: DefaultPresetOptions = {}): Preset {
  const maxAnswerBytes = validateAnswerCap(options.maxAnswerBytes);
  return {
    name: 'default',
    tools: [
      createWriteTool(),
      createReadTool({
        maxAnswerBytes,
        ...(options.defaultReadLimit === undefined ? {} : { defaultLimit: options.defaultReadLimit }),
      }),
      createEditTool(),
      createListTool({ maxAnswerBytes, ...(options.now === undefined ? {} : { now: options.now }) }),
      createDeleteTool(),
      createSearchTool({ maxAnswerBytes }),
    ],
    systemPrompt: DEFAULT_SYSTEM_PROMPT,
  };
}

function validateAnswerCap(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_ANSWER_BYTES;
  if (!Number.isSafeInteger(value) || value < MIN_ANSWER_BYTES) {
    throw new ScratchpadError(
      'INVALID_ARGUMENT',
      `maxAnswerBytes must be a whole number of bytes >= ${MIN_ANSWER_BYTES}, not ${String(value)}.`,
      { hint: `Leave it out for the default of ${DEFAULT_MAX_ANSWER_BYTES} (32 KiB).` },
    );
  }
  return value;
}
