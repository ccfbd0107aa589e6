import { describe, expect, it } from 'vitest';
import { createScratchpad } from '../service/scratchpad.js';
import { createMemoryDriver } from '../stores/memory/index.js';
import { createReadTool } from './default/read-tool.js';
import { createMetnosReadTool } from './presets/metnos/metnos-read-tool.js';
import { createNamedReadTool } from './presets/named/named-tools.js';
import { runTool } from './tool.js';

async function setup() {
  const session = createScratchpad({ driver: createMemoryDriver() }).session('s');
  const { entry } = await session.write('big', 'é'.repeat(40_000));
  return { session, entry };
}

describe('reads bounded by the reply limit', () => {
  it("refuse before reading, with the call that fits in each preset's own syntax", async () => {
    const { session, entry } = await setup();
    const context = { session, maxReplyBytes: 10_000 };
    const fits = 5000; // 10,000 bytes of 2-byte characters
    const plain = await runTool(createReadTool(), { name: 'big', offset: 100, limit: 30_000 }, context);
    expect(plain.isError).toBe(true);
    expect(plain.text).toBe(
      `Error (CONTENT_TOO_LARGE): "big" is 80.0 KB (40,000 chars); this slice would return 60.0 KB, more than the 10.0 KB one reply may carry. Read it in slices of at most 5,000 chars: scratchpad_read {"name":"big","offset":100,"limit":${fits}}, then continue from where that one ends.`,
    );
    const metnos = await runTool(createMetnosReadTool(), { scratchpad_id: entry.id, mode: 'full' }, context);
    expect(metnos.text).toContain(
      `scratchpad_read {\\"scratchpad_id\\":\\"${entry.id}\\",\\"mode\\":\\"range\\",\\"start\\":0,\\"end\\":${fits}}`,
    );
    const named = await runTool(createNamedReadTool(), { name: 'big', offset: 0, limit: 30_000 }, context);
    expect(named.text).toContain(`scratchpad_read {"name":"big","offset":0,"limit":${fits}}`);
    const slice = await runTool(createReadTool(), { name: 'big', offset: 100, limit: fits }, context);
    expect(slice.isError).toBeFalsy();
    expect(slice.text).toContain('é'.repeat(fits));
  });

  it('reads freely when no limit is set (library use)', async () => {
    const { session } = await setup();
    const result = await runTool(createReadTool(), { name: 'big', limit: 40_000 }, { session });
    expect(result.isError).toBeFalsy();
  });
});
