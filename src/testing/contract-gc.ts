import { expect } from 'vitest';
import type { ContractHarness } from './contract-harness.js';

const NOTHING_HELD = { contents: 0, bytes: 0, until: null };

/**
 * What `gc` reports, on every backend: the entries it removed, and the content of replaced or deleted entries a
 * driver keeps for readers (or none, for a driver that frees it at once), released exactly once by the first gc
 * after the time it names.
 */
export function gcContract({ open, test, tick, now }: ContractHarness): void {
  test('gc reports the content it keeps for readers, and frees it once, after the time it names', async () => {
    const pad = open();
    await pad.write('s1', 'replaced', 'x'.repeat(1000));
    await pad.write('s1', 'deleted', 'y'.repeat(500));
    await pad.write('s1', 'expiring', 'z'.repeat(200), { ttlMs: 1000 });
    tick(1000);
    // All three leave at the same moment: a replace, a delete, and gc removing the expired entry.
    await pad.write('s1', 'replaced', 'short');
    await pad.delete('s1', 'deleted');

    const first = await pad.gc();
    expect(first.removed.map((item) => [item.name, item.bytes, item.reason])).toEqual([
      ['expiring', 200, 'expired'],
    ]);
    expect(first.bytes).toBe(200);
    expect(first.released).toEqual({ contents: 0, bytes: 0 });
    // A driver frees replaced and deleted content at once, or keeps all three for readers and says until when.
    if (first.held.contents === 0) {
      expect(first.held).toEqual(NOTHING_HELD);
    } else {
      expect(first.held).toEqual({ contents: 3, bytes: 1700, until: expect.any(Number) });
      expect(first.held.until).toBeGreaterThan(now());
      // Not a moment before the time it named.
      tick((first.held.until as number) - now() - 1);
      const early = await pad.gc();
      expect(early.released).toEqual({ contents: 0, bytes: 0 });
      expect(early.held).toEqual(first.held);
      tick(1);
    }

    const second = await pad.gc();
    expect(second.removed).toEqual([]);
    expect(second.released).toEqual({ contents: first.held.contents, bytes: first.held.bytes });
    expect(second.held).toEqual(NOTHING_HELD);
    const third = await pad.gc();
    expect(third).toMatchObject({ removed: [], bytes: 0, staging: 0, held: NOTHING_HELD });
    expect(third.released).toEqual({ contents: 0, bytes: 0 });
    expect(third.files).toEqual({ count: 0, bytes: 0 });
    expect((await pad.read('s1', 'replaced')).content).toBe('short');
  });
}
