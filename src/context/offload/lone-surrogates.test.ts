import { describe, expect, it } from 'vitest';
import { createScratchpad } from '../../service/scratchpad.js';
import { createMemoryDriver } from '../../stores/memory/index.js';
import { createOffloadPolicy } from './offload-policy.js';
import { createOffloader } from './offloader.js';

describe('offloading a result with lone UTF-16 surrogates', () => {
  it('stores it with U+FFFD in their place and says how many, in the metadata the observation shows', async () => {
    const session = createScratchpad({ driver: createMemoryDriver() }).session('s');
    const offloader = createOffloader({ session, policy: createOffloadPolicy({ threshold: 100 }) });
    const result = `${'a log line cut in an emoji \ud83d\n'.repeat(40)}a pair kept whole 😀\n`;
    const outcome = await offloader.process({ tool: 'logs', result });
    expect(outcome.offloaded).toBe(true);
    if (!outcome.offloaded) return;
    expect(outcome.text).toContain('40 lone UTF-16 surrogates (half of a pair) stored as U+FFFD');
    const stored = (await session.read(outcome.entry.name)).content as string;
    expect(stored).toBe(result.replaceAll('\ud83d\n', '\ufffd\n'));
    expect(stored.endsWith('a pair kept whole 😀\n')).toBe(true);
  });
});
