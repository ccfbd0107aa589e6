import { z } from 'zod';
import { formatCount } from '../../core/format.js';
import { describeLifetime } from '../../core/lifetime.js';
import { MAX_TTL_SECONDS, TTL_SECONDS_RANGE } from '../../core/ttl.js';
import { defineTool, type ScratchpadTool } from '../tool.js';
import { TOOL_NAMES } from '../tool-names.js';
import { describeEntry } from './render.js';

const parameters = z.object({
  name: z
    .string()
    .describe('Entry name: 1-128 characters of letters, digits, ".", "_", "-" (e.g. "plan", "findings-1").'),
  content: z.string().describe('The text to store.'),
  mode: z
    .enum(['replace', 'append', 'create'])
    .optional()
    .describe(
      'replace (default) overwrites; append adds to the end (creating the entry if needed); create fails if the name exists.',
    ),
  if_version: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      'Only write if the entry is at this version (0 = must not exist), so you never overwrite a change you did not see.',
    ),
  ttl_seconds: z
    .number()
    .int()
    .min(1)
    .max(MAX_TTL_SECONDS)
    .nullable()
    .optional()
    .describe(`Delete the entry after this many seconds (${TTL_SECONDS_RANGE}); null keeps it.`),
  pinned: z.boolean().optional().describe('Pinned entries are never removed by cleanup.'),
});

/** `scratchpad_write`: store text under a name (replace, append or create), with compare-and-set. */
export function createWriteTool(): ScratchpadTool<z.infer<typeof parameters>> {
  return defineTool({
    name: TOOL_NAMES.write,
    description:
      'Save text under a name in the scratchpad, outside your context, so you can read it back later (plans, findings, intermediate results, drafts). ' +
      'Writing an existing name replaces it unless mode is "append" or "create". ' +
      'An entry is kept for this session unless you set ttl_seconds (then it is deleted after that many seconds). ' +
      'The result tells you the new size, version and how long the entry is kept.',
    parameters,
    async execute(input, { session, turn, step }) {
      const result = await session.write(input.name, input.content, {
        mode: input.mode ?? 'replace',
        ...(input.if_version === undefined ? {} : { ifVersion: input.if_version }),
        ...(input.ttl_seconds === undefined
          ? {}
          : { ttlMs: input.ttl_seconds === null ? null : input.ttl_seconds * 1000 }),
        ...(input.pinned === undefined ? {} : { pinned: input.pinned }),
        ...(turn === undefined ? {} : { turn }),
        ...(step === undefined ? {} : { step }),
        source: TOOL_NAMES.write,
      });
      const entry = result.entry;
      let text: string;
      if (result.created) text = `Created ${describeEntry(entry)}.`;
      else if (input.mode === 'append') {
        text = `Appended ${formatCount(result.writtenBytes)} bytes to ${describeEntry(entry)}; it was version ${result.previous?.version}.`;
      } else {
        text = `Replaced ${describeEntry(entry)}; version ${result.previous?.version} had ${formatCount(result.previous?.chars ?? 0)} chars.`;
      }
      text += ` It is ${describeLifetime(entry, entry.updatedAt)}.`;
      return {
        text,
        data: {
          ok: true,
          id: entry.id,
          name: entry.name,
          version: entry.version,
          chars: entry.chars,
          lines: entry.lines,
          bytes: entry.bytes,
          created: result.created,
        },
      };
    },
  });
}
