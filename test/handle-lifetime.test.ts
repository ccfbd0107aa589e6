import { describe, expect, it } from 'vitest';
import { createOffloadPolicy } from '../src/context/offload/offload-policy.js';
import { createOffloader } from '../src/context/offload/offloader.js';
import { createScratchpad } from '../src/service/scratchpad.js';
import { createMemoryDriver } from '../src/stores/memory/index.js';
import { createDefaultPreset } from '../src/tools/default/default-preset.js';
import { runTool, type ScratchpadTool } from '../src/tools/tool.js';
import { wrapTools } from '../src/tools/wrap-tools.js';

const start = Date.UTC(2026, 10, 24, 13, 0, 0);

function setup() {
  const clock = { now: start };
  const now = () => clock.now;
  const session = createScratchpad({ driver: createMemoryDriver({ now }), now }).session('s1');
  const tools = createDefaultPreset({ now }).tools;
  const call = (name: string, input: unknown) =>
    runTool(tools.find((tool) => tool.name === name) as ScratchpadTool, input, { session });
  return { clock, session, tools, call };
}

const log = 'INFO step ok\n'.repeat(400);

describe('handles state their lifetime', () => {
  it("every observation format but seed 000's says how long the stored entry is kept", async () => {
    const { session } = setup();
    const texts: Record<string, string> = {};
    for (const format of ['default', 'metnos', 'named'] as const) {
      const offloader = createOffloader({
        session,
        policy: createOffloadPolicy({ format, threshold: 100, ttlMs: 2 * 3_600_000 }),
      });
      const outcome = await offloader.process({ tool: `t_${format}`, result: log });
      if (!outcome.offloaded) throw new Error('expected an offload');
      texts[format] = outcome.text;
    }
    expect(texts.default).toContain('kept for 2 hours (until 2026-11-24T15:00:00Z)');
    expect(texts.named).toContain('kept for 2 hours (until 2026-11-24T15:00:00Z)');
    // Seed 000 pins its observation's `_note` word for word: the preset keeps it.
    expect(JSON.parse(texts.metnos ?? '{}')._note).toBe(
      'Large observation saved in scratchpad. To read it in full or partially, use the scratchpad_read tool.',
    );
    const session2 = setup().session;
    const kept = createOffloader({
      session: session2,
      policy: createOffloadPolicy({ threshold: 100, ttlMs: null }),
    });
    const outcome = await kept.process({ tool: 'bash', result: log });
    expect(outcome.text).toContain('kept for this session (no expiry)');
  });

  it('tool descriptions say how long entries live, and a write says how long this one is kept', async () => {
    const { tools, call } = setup();
    const described = (name: string) => tools.find((tool) => tool.name === name)?.description ?? '';
    expect(described('scratchpad_write')).toContain('kept for this session unless you set ttl_seconds');
    expect(described('scratchpad_read')).toContain('reading one that expired says so');
    expect(described('scratchpad_list')).toContain('when each expires');
    const [wrapped] = wrapTools(
      [{ name: 'cat', inputSchema: { type: 'object', properties: {} }, execute: () => 'x' }],
      { session: setup().session },
    );
    expect(JSON.stringify(wrapped?.inputSchema)).toContain('kept for this session');
    expect((await call('scratchpad_write', { name: 'a', content: 'x', ttl_seconds: 90 })).text).toContain(
      'It is kept for 90 seconds (until 2026-11-24T13:01:30Z).',
    );
    expect((await call('scratchpad_write', { name: 'b', content: 'x' })).text).toContain(
      'It is kept for this session (no expiry).',
    );
  });

  it('reading an expired entry says it expired, not that it was never there', async () => {
    const { clock, call } = setup();
    await call('scratchpad_write', { name: 'short', content: 'soon gone', ttl_seconds: 60 });
    clock.now += 61_000;
    const expired = await call('scratchpad_read', { name: 'short' });
    expect(expired.isError).toBe(true);
    expect(expired.text).toContain('expired at 2026-11-24T13:01:00');
    const never = await call('scratchpad_read', { name: 'never' });
    expect(never.text).toContain('No entry "never"');
  });
});
