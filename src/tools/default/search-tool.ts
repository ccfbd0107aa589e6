import { z } from 'zod';
import { indexingMessage } from '../../service/search/indexing-message.js';
import { defineTool, type ScratchpadTool } from '../tool.js';
import { TOOL_NAMES } from '../tool-names.js';
import { ANSWER_FRAME_BYTES } from './capped-read.js';

const parameters = z.object({
  query: z.string().describe('Words to look for (ranked full-text search, not a regex).'),
  limit: z.number().int().min(1).max(50).optional().describe('Most entries to return (default 10).'),
});

/** `scratchpad_search`: ranked full-text search across the session's entries. */
export function createSearchTool(
  options: { maxAnswerBytes?: number } = {},
): ScratchpadTool<z.infer<typeof parameters>> {
  const cap = options.maxAnswerBytes ?? Number.POSITIVE_INFINITY;
  return defineTool({
    name: TOOL_NAMES.search,
    description:
      'Find which scratchpad entries mention some words, best match first, with a snippet. Use it when you do not remember where something was stored; ' +
      `then read the entry with ${TOOL_NAMES.read} (regex finds the exact lines).`,
    parameters,
    async execute(input, { session }) {
      const found = await session.search(input.query, { limit: input.limit ?? 10 });
      const { indexing } = found;
      // Within the answer cap: the best hits that fit (a snippet is short, so this bites only on a tiny cap).
      let size = ANSWER_FRAME_BYTES;
      const hits = found.hits.filter((hit, index) => {
        size += Buffer.byteLength(`${index + 1}. ${hit.entry.name} — ${hit.snippet}\n`);
        return index === 0 || size <= cap;
      });
      const progress = indexing ? { indexing } : {};
      const note = indexing ? `\n${indexingMessage(indexing)}` : '';
      if (hits.length === 0)
        return {
          text: `No entry mentions ${JSON.stringify(input.query)}.${note}`,
          data: { ok: true, hits: [], ...progress },
        };
      return {
        text: hits.map((hit, index) => `${index + 1}. ${hit.entry.name} — ${hit.snippet}`).join('\n') + note,
        data: {
          ok: true,
          hits: hits.map((hit) => ({ name: hit.entry.name, score: hit.score, snippet: hit.snippet })),
          ...progress,
        },
      };
    },
  });
}
