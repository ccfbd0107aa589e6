import { z } from 'zod';
import { collectAsync } from '../../../core/collect-async.js';
import { ScratchpadError } from '../../../core/errors.js';
import { codePointLength } from '../../../core/utf8.js';
import type { SessionScratchpad } from '../../../service/scratchpad.js';
import type { Preset } from '../../preset.js';
import { defineTool, type ScratchpadTool, type ToolOutput } from '../../tool.js';
import { TOOL_NAMES } from '../../tool-names.js';
import { compareCodePoints, entryNameForKey, isHarnessKey, keyOfEntry } from './harness-keys.js';
import { pythonRepr } from './python-repr.js';

/** Seed 003 §9.3: the system-prompt guidance, verbatim. */
export const HARNESS_SYSTEM_PROMPT = `You have access to a scratchpad — a durable key-value store that survives
the context window. Use it whenever you discover or decide something you
expect to need more than two turns later.
Examples of what to write to the scratchpad:
- Plans you commit to. If you decide on a 5-step approach, write it to
"plan" immediately. Read it back when you're unsure of your next step.
- Findings from expensive tools. If you ran a 10-second database query,
store the result in "query-result-1" so you don't have to re-run it.
- Constraints the user has expressed. "No changes to production" goes to
"constraints" and stays there for the session.
- Decisions you don't want to revisit. "Using port 8081 because 8080 is
taken" goes to "port-decision".
Call scratchpad_list() at the start of a session to see what's already
stored. Call scratchpad_read(key) to retrieve values you remember writing.
Call scratchpad_write(key, content) to persist. Use short keys:
"plan", "constraints", "query-result-1".
The scratchpad is durable. What you write here will be readable by future
sessions (including yourself, tomorrow). Treat it like a shared notebook.`;

/** A failure with exactly the seed's message (no code prefix: the harness shows the exception text). */
function failure(message: string): ToolOutput {
  return { isError: true, text: message, data: { ok: false, error: message } };
}

/** Seed 003's `_path` check: invalid characters first, then emptiness. Returns an error output or the entry name. */
function checkKey(key: string): ToolOutput | string {
  if (key.length > 0 && !isHarnessKey(key))
    return failure(`invalid key ${pythonRepr(key)}: use [A-Za-z0-9_-]+`);
  if (key.length === 0) return failure('key cannot be empty');
  return entryNameForKey(key);
}

const writeParameters = z.object({ key: z.string(), content: z.string() });
const readParameters = z.object({ key: z.string() });
const listParameters = z.object({});

/** Seed 003 (the agent-harness book, ch. 9): `scratchpad_write`, `scratchpad_read`, `scratchpad_list` with its exact strings. */
export function createHarnessPreset(): Preset {
  const write: ScratchpadTool<z.infer<typeof writeParameters>> = defineTool({
    name: TOOL_NAMES.write,
    description: `Store a value in the scratchpad under the given key.
key: alphanumeric, dashes, underscores only. No slashes, dots.
content: any string; overwrites existing value for this key.
Side effects: writes one file to the scratchpad directory.
Use this for: plans, discovered facts, decisions that should
survive the context window. Write once, read on demand.`,
    parameters: writeParameters,
    async execute({ key, content }, { session }) {
      const name = checkKey(key);
      if (typeof name !== 'string') return name;
      await session.write(name, content, { metadata: { harnessKey: key }, source: TOOL_NAMES.write });
      return { text: `wrote ${codePointLength(content)} chars to scratchpad[${key}]` };
    },
  });
  const read: ScratchpadTool<z.infer<typeof readParameters>> = defineTool({
    name: TOOL_NAMES.read,
    description: `Retrieve a value from the scratchpad.
key: the key used when writing.
Returns the stored content, or an error if not found.
Side effects: reads one file.`,
    parameters: readParameters,
    async execute({ key }, { session, maxReplyBytes }) {
      const name = checkKey(key);
      if (typeof name !== 'string') return name;
      const entry = await findKeyEntry(session, name, key);
      if (!entry) return failure(`scratchpad[${key}] not found`);
      const result = await session.read(
        name,
        undefined,
        maxReplyBytes === undefined ? {} : { maxBytes: maxReplyBytes },
      );
      return { text: result.content };
    },
  });
  const list: ScratchpadTool<z.infer<typeof listParameters>> = defineTool({
    name: TOOL_NAMES.list,
    description: `List keys currently in the scratchpad.
Returns a newline-separated list of keys.
Side effects: reads the scratchpad directory.
Use this at the start of a session to discover what prior
agents (or you, in a past turn) have stored.`,
    parameters: listParameters,
    async execute(_input, { session }) {
      const keys = (await collectAsync(session.entries()))
        .filter((entry) => entry.kind === 'text')
        .flatMap((entry) => {
          const key = keyOfEntry(entry);
          return key === undefined ? [] : [key];
        })
        .sort(compareCodePoints);
      return { text: keys.length > 0 ? keys.join('\n') : '(empty)' };
    },
  });
  return { name: 'harness', tools: [write, read, list], systemPrompt: HARNESS_SYSTEM_PROMPT };
}

async function findKeyEntry(session: SessionScratchpad, name: string, key: string) {
  try {
    const entry = await session.get(name);
    return entry.kind === 'text' && keyOfEntry(entry) === key ? entry : undefined;
  } catch (error) {
    if (ScratchpadError.hasCode(error, 'ENTRY_NOT_FOUND')) return undefined;
    throw error;
  }
}
