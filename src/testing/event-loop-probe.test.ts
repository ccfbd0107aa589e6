import { describe, expect, it } from 'vitest';
import { blockFor, probeEventLoop } from './event-loop-probe.js';

describe('probeEventLoop', () => {
  it('records a synchronous block as a delay at least as long as the block', async () => {
    const result = await probeEventLoop(() => {
      blockFor(300);
      return 'done';
    });
    expect(result.value).toBe('done');
    expect(result.worstDelayMs).toBeGreaterThanOrEqual(250);
    expect(result.worstBusyMs).toBeGreaterThanOrEqual(200);
    expect(result.durationMs).toBeGreaterThanOrEqual(300);
  });

  it('records a block that happens after the operation awaited something', async () => {
    const result = await probeEventLoop(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      blockFor(300);
    });
    expect(result.worstDelayMs).toBeGreaterThanOrEqual(250);
  });

  it('reports a loop that is only ever busy in short slices as far below the block it avoided', async () => {
    const result = await probeEventLoop(async () => {
      for (let slice = 0; slice < 30; slice += 1) {
        blockFor(10);
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(300);
    expect(result.worstDelayMs).toBeLessThan(result.durationMs / 2);
    expect(result.samples).toBeGreaterThan(5);
  });

  it('tells a loop kept busy from a loop left waiting without using the CPU', async () => {
    const result = await probeEventLoop(() => {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
    });
    expect(result.worstDelayMs).toBeGreaterThanOrEqual(250);
    expect(result.worstBusyMs).toBeLessThan(150);
  });

  it('rethrows the operation error after stopping the sampler', async () => {
    await expect(
      probeEventLoop(() => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
  });
});
