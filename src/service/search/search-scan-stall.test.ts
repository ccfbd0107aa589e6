import { describe, expect, it } from 'vitest';
import { probeEventLoop, TEST_STALL_BOUND_MS } from '../../../test/support/event-loop-probe.js';
import { createMemoryDriver } from '../../stores/memory/memory-driver.js';
import { createScratchpad } from '../scratchpad.js';

describe('search by scan (memory store)', () => {
  it('scans a large session without stalling the event loop', async () => {
    const pad = createScratchpad({ driver: createMemoryDriver() });
    const line = 'worker handled the request in 12 ms and nothing else happened here\n';
    for (let part = 0; part < 4; part += 1)
      await pad.write('s1', `log-${part}`, `${line.repeat(360_000)}needle ${part}\n`);
    const probe = await probeEventLoop(() => pad.search('s1', 'needle'));
    expect(probe.value.hits.map((hit) => hit.entry.name).sort()).toEqual([
      'log-0',
      'log-1',
      'log-2',
      'log-3',
    ]);
    expect(probe.value.indexing).toBeUndefined();
    expect(probe.worstBusyMs).toBeLessThan(TEST_STALL_BOUND_MS);
  });

  it('ranks and snippets a term that is on every line, within the stall bound', async () => {
    const pad = createScratchpad({ driver: createMemoryDriver() });
    // 32,768 hits per 256 KiB chunk: the scan counts them with one global match per chunk.
    await pad.write('s1', 'dense', 'request\n'.repeat(300_000));
    await pad.write('s1', 'sparse', `${'nothing here\n'.repeat(1000)}one request\n`);
    const probe = await probeEventLoop(() => pad.search('s1', 'request'));
    expect(probe.value.hits.map((hit) => hit.entry.name)).toEqual(['dense', 'sparse']);
    expect(probe.value.hits[0]?.snippet).toMatch(/^\[request\] \[request\] \[request\]/);
    expect(probe.worstBusyMs).toBeLessThan(TEST_STALL_BOUND_MS);
  });
});
