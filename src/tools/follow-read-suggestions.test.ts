import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createScratchpad } from '../service/scratchpad.js';
import { createMemoryDriver } from '../stores/memory/index.js';
import { createReadTool } from './default/read-tool.js';
import { createMetnosReadTool } from './presets/metnos/metnos-read-tool.js';
import { runTool } from './tool.js';

/** The call a refusal suggests: the JSON arguments after `scratchpad_read ` in its text. */
function suggestedCall(text: string): Record<string, unknown> {
  const found = /scratchpad_read (\{[^}]*\})/.exec(text);
  if (!found) throw new Error(`no suggested call in: ${text}`);
  return JSON.parse(found[1] as string) as Record<string, unknown>;
}

/**
 * Reads `content` (entry `mixed`) from start to end with the default read tool, asking for `limit` chars at a
 * time; whenever a read is refused, makes exactly the call the refusal suggests, which must succeed. Returns
 * what was read and how many suggestions were followed.
 */
async function readFollowingSuggestions(content: string, maxReplyBytes: number, limit: number) {
  const session = createScratchpad({ driver: createMemoryDriver() }).session('s');
  const { entry } = await session.write('mixed', content);
  const context = { session, maxReplyBytes };
  const tool = createReadTool();
  let read = '';
  let followed = 0;
  for (let offset = 0; offset < entry.chars; ) {
    let answer = await runTool(tool, { name: 'mixed', offset, limit }, context);
    if (answer.isError) {
      expect(answer.text).toContain('CONTENT_TOO_LARGE');
      const call = suggestedCall(answer.text);
      expect(call.offset).toBe(offset);
      answer = await runTool(tool, call, context);
      expect(
        answer.isError,
        `the suggested call ${JSON.stringify(call)} was refused: ${answer.text}`,
      ).toBeFalsy();
      followed += 1;
    }
    const data = answer.data as { start: number; end: number };
    expect(data.start).toBe(offset);
    expect(data.end).toBeGreaterThan(offset);
    const slice = (await session.read('mixed', { type: 'range', start: data.start, end: data.end })).content;
    read += slice;
    offset = data.end;
  }
  return { read, followed };
}

describe('a suggested slice fits when followed', () => {
  it('300,000 emoji then 3 M ASCII: the slice suggested at the start is read, and so on to the end', async () => {
    const content = `${'😀'.repeat(300_000)}${'検索'.repeat(50_000)}${'a'.repeat(3_000_000)}${'😀'.repeat(1_000)}`;
    const { read, followed } = await readFollowingSuggestions(content, 100_000, 70_000);
    expect(read).toBe(content);
    expect(followed).toBeGreaterThan(0);
  }, 60_000);

  it('on any mix of 1- to 4-byte characters, any reply limit and any asked slice', async () => {
    const run = fc.tuple(fc.constantFrom('a', 'é', '検', '😀', '\n'), fc.integer({ min: 1, max: 1_500 }));
    await fc.assert(
      fc.asyncProperty(
        fc.array(run, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 16, max: 4_000 }),
        fc.integer({ min: 1, max: 5_000 }),
        async (runs, maxReplyBytes, limit) => {
          const content = runs.map(([character, count]) => character.repeat(count)).join('');
          const { read } = await readFollowingSuggestions(content, maxReplyBytes, limit);
          expect(read).toBe(content);
        },
      ),
      { numRuns: 25 },
    );
  }, 60_000);

  it("the metnos preset's range mode suggests a range that fits, from the emoji to the ASCII", async () => {
    const session = createScratchpad({ driver: createMemoryDriver() }).session('s');
    const content = `${'😀'.repeat(300_000)}${'a'.repeat(3_000_000)}`;
    const { entry } = await session.write('mixed', content);
    const context = { session, maxReplyBytes: 100_000 };
    const tool = createMetnosReadTool();
    for (const start of [0, 290_000, 1_000_000]) {
      const refused = await runTool(
        tool,
        { scratchpad_id: entry.id, mode: 'range', start, end: start + 200_000 },
        context,
      );
      const call = suggestedCall((JSON.parse(refused.text) as { error: string }).error);
      expect(call.start).toBe(start);
      const answer = await runTool(tool, call, context);
      const observation = JSON.parse(answer.text) as { ok: boolean; content: string };
      expect(observation.ok, answer.text).toBe(true);
      expect(observation.content).toBe([...content].slice(start, call.end as number).join(''));
    }
  }, 60_000);
});
