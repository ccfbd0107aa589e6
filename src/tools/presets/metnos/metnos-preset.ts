import type { Preset } from '../../preset.js';
import { createMetnosReadTool } from './metnos-read-tool.js';

/** Seed 000's planner guidance on the scratchpad (the builtin read tool and `{{stepN.field}}`). */
export const METNOS_SYSTEM_PROMPT = `Large observations (over 4 KB) are saved in the scratchpad: you see a summary (the first 500 and last 500 characters) and a scratchpad_id instead.
To read it in full or partially, use the scratchpad_read tool with mode head, tail, range or full (full only when it is small).
To pass a previous step's output to a tool, use {{stepN.field}} as the whole argument value (e.g. "{{step1.content}}"): the runtime substitutes the full stored value, not the summary. Only reference fields that exist in that step's observation.`;

/** Seed 000 (Metnos): the builtin `scratchpad_read`. Offload with the `metnos` offload policy. */
export function createMetnosPreset(): Preset {
  return {
    name: 'metnos',
    tools: [createMetnosReadTool()],
    systemPrompt: METNOS_SYSTEM_PROMPT,
    readToolOnDemand: true,
  };
}
