// Session handles on every store backend (decision 019): the registry entry's create-once write and TTL, and a
// handle's confinement to its own session, hold on memory, SQLite, the file system and PostgreSQL alike.
import { afterAll, describe, expect, it } from 'vitest';
import { serveSession } from '../src/mcp/served-session.js';
import { SessionHandleTools } from '../src/mcp/session-handle-tools.js';
import { SessionHandles } from '../src/mcp/session-handles.js';
import { createScratchpad } from '../src/service/scratchpad.js';
import type { StoreDriver } from '../src/stores/driver.js';
import { createPreset } from '../src/tools/presets/create-preset.js';
import { throwawayBackends } from './helpers/throwaway-backends.js';

const backends = throwawayBackends('handles');
afterAll(() => backends.remove());
const BACKENDS = backends.open;

function textOf(result: { content: unknown }): string {
  return (result.content as { text: string }[]).map((block) => block.text).join('\n');
}

describe.each(Object.keys(BACKENDS))('session handles on the %s store', (backend) => {
  it('confine each handle to its session and end it with its lifetime', async () => {
    let clock = Date.now();
    const now = () => clock;
    const scratchpad = createScratchpad({
      driver: await (BACKENDS[backend] as () => Promise<StoreDriver>)(),
      now,
    });
    try {
      const options = { scratchpad, session: 'own', preset: createPreset('default') };
      const tools = new SessionHandleTools(
        new SessionHandles(scratchpad, { lifetimeMs: 60_000, now }),
        serveSession(options),
        (session) => serveSession({ ...options, session }),
      );
      const issue = async () =>
        ((await tools.call('scratchpad_session', {})).structuredContent as { handle: string }).handle;
      const a = await issue();
      const b = await issue();
      const written = await tools.call('scratchpad_write', { session: a, name: 'n', content: 'IN-A-77\n' });
      expect(written.isError ?? false).toBe(false);
      expect(textOf(await tools.call('scratchpad_read', { session: a, name: 'n' }))).toContain('IN-A-77');
      for (const args of [{ session: b, name: 'n' }, { name: 'n' }]) {
        const result = await tools.call('scratchpad_read', args);
        expect(result.isError).toBe(true);
        expect(textOf(result)).not.toContain('IN-A-77');
      }
      clock += 60_001;
      const expired = await tools.call('scratchpad_read', { session: a, name: 'n' });
      expect(textOf(expired)).toMatch(/^Error \(SESSION_HANDLE_EXPIRED\)/);
    } finally {
      await scratchpad.close();
    }
  }, 60_000);
});
