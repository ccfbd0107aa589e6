import { describe, expect, it } from 'vitest';
import { eventLoopSlices } from './event-loop-slices.js';

/** True when a macrotask queued before `step` ran while `step` was awaited. */
async function letOthersRun(step: () => Promise<void>): Promise<boolean> {
  let ran = false;
  setImmediate(() => {
    ran = true;
  });
  await step();
  return ran;
}

describe('eventLoopSlices', () => {
  it('gives the event loop a turn once the slice has run its length, and not before', async () => {
    expect(await letOthersRun(eventLoopSlices(Number.POSITIVE_INFINITY))).toBe(false);
    const always = eventLoopSlices(-1);
    expect(await letOthersRun(always)).toBe(true);
    expect(await letOthersRun(always)).toBe(true);
  });
});
