import { describe, expect, it } from 'vitest';
import { createScratchpad } from '../../service/scratchpad.js';
import { createMemoryDriver } from '../../stores/memory/index.js';
import { createOffloadPolicy } from './offload-policy.js';
import { createOffloader } from './offloader.js';

function setup(ttlMs?: number) {
  let clock = 1_700_000_000_000;
  const now = () => clock;
  const scratchpad = createScratchpad({ driver: createMemoryDriver({ now }), now });
  const session = scratchpad.session('s');
  const offloader = createOffloader({
    session,
    policy: createOffloadPolicy({ threshold: 10, minSavings: 0, ...(ttlMs === undefined ? {} : { ttlMs }) }),
  });
  return { session, offloader, advance: (ms: number) => (clock += ms) };
}

const stored = async (promise: ReturnType<ReturnType<typeof createOffloader>['process']>) => {
  const outcome = await promise;
  if (!outcome.offloaded) throw new Error('expected an offload');
  return outcome.entry;
};

describe('offloading the same result twice (no re-offload)', () => {
  it('names the existing entry for the same tool and bytes, a new one for anything else', async () => {
    const { session, offloader } = setup();
    const result = 'a large enough result\n'.repeat(200);
    const first = await stored(offloader.process({ tool: 'fetch', result }));
    const again = await stored(offloader.process({ tool: 'fetch', result }));
    expect(again.id).toBe(first.id);
    expect(again.name).toBe('fetch_1');
    expect((await stored(offloader.process({ tool: 'fetch', result: `${result}!` }))).name).toBe('fetch_2');
    expect((await stored(offloader.process({ tool: 'other', result }))).name).toBe('other_1');
    expect((await stored(offloader.process({ tool: 'fetch', result, turn: 't2' }))).name).toBe('fetch_3');
    const bytes = new Uint8Array(64).fill(9);
    const binary = await stored(offloader.process({ tool: 'shot', result: bytes }));
    expect((await stored(offloader.process({ tool: 'shot', result: bytes }))).id).toBe(binary.id);
    expect((await session.list()).entries.map((entry) => entry.name)).toEqual([
      'fetch_1',
      'fetch_2',
      'fetch_3',
      'other_1',
      'shot_1',
    ]);
  });

  it('the same content with other metadata or fields (ok: false, an error) is a new entry, each holding its own', async () => {
    const { offloader } = setup();
    const content = 'a large enough result\n'.repeat(200);
    const passed = await stored(
      offloader.process({ tool: 'build', result: { ok: true, content, metadata: {} } }),
    );
    const failed = await stored(
      offloader.process({ tool: 'build', result: { ok: false, content, metadata: {}, error: 'exit 2' } }),
    );
    expect(failed.id).not.toBe(passed.id);
    expect(failed.metadata).toEqual({ resultFields: { ok: false, error: 'exit 2' } });
    const again = await stored(
      offloader.process({ tool: 'build', result: { ok: false, content, metadata: {}, error: 'exit 2' } }),
    );
    expect(again.id).toBe(failed.id);
  });

  it('renews the lifetime of the reused entry as a new one would start', async () => {
    const { offloader, advance } = setup(60_000);
    const result = 'a large enough result\n'.repeat(200);
    const first = await stored(offloader.process({ tool: 'fetch', result }));
    advance(50_000);
    const again = await stored(offloader.process({ tool: 'fetch', result }));
    expect(again.id).toBe(first.id);
    expect(again.expiresAt).toBe((first.expiresAt as number) + 50_000);
  });
});
