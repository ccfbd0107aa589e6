import type { Preset } from '../../preset.js';
import {
  createNamedDeleteTool,
  createNamedEditTool,
  createNamedListTool,
  createNamedReadTool,
  createNamedWriteTool,
} from './named-tools.js';

/** Guidance distilled from seed 004's "When the Scratchpad is Used". */
export const NAMED_SYSTEM_PROMPT = `The scratchpad is a session-scoped working memory where you can store, retrieve, edit, and manage content without consuming conversation context. Entries are identified by string names and persist across turns within the session.
- Store intermediate results (extracted text, API responses, research notes) with scratchpad_write and read them back with scratchpad_read (offset/limit, or regex to get matching lines).
- Any tool can save its output directly to the scratchpad: add the parameter scratchpad="NAME" to the call.
- When a tool's output exceeds 30,000 characters it is saved automatically under a generated name (e.g. execute_command_1) and you see a preview instead.`;

/** Seed 004: named, session-scoped entries (write/read/edit/list/delete). Offload with the `named` policy. */
export function createNamedPreset(): Preset {
  return {
    name: 'named',
    tools: [
      createNamedWriteTool(),
      createNamedReadTool(),
      createNamedEditTool(),
      createNamedListTool(),
      createNamedDeleteTool(),
    ],
    systemPrompt: NAMED_SYSTEM_PROMPT,
  };
}
