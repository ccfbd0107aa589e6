import { expect } from 'vitest';
import type { ScratchpadError } from '../core/errors.js';
import type { ContractHarness } from './contract-harness.js';
import { expectCode } from './expect-code.js';

const HUNDRED_YEARS_MS = 3_155_760_000_000;

/**
 * Validation rules of the store contract: every malformed option is an `INVALID_ARGUMENT` naming the accepted
 * range, raised before the backend sees it, so nothing is stored and every later listing, stats and gc still
 * work — the same on every backend.
 */
export function validationContract({ open, test }: ContractHarness): void {
  const assertIntact = async (pad: ReturnType<ContractHarness['open']>): Promise<void> => {
    expect((await pad.list('s1')).entries.map((entry) => entry.name)).toEqual(['kept']);
    expect(await pad.stats()).toMatchObject({ entries: 1 });
    expect((await pad.sessions()).map((info) => info.id)).toEqual(['s1']);
    expect((await pad.gc()).removed).toEqual([]);
  };

  test('a TTL is whole milliseconds from one second to 100 years, or null', async () => {
    const pad = open();
    await pad.write('s1', 'kept', 'x');
    for (const ttlMs of [999, 1000.5, 0, -1000, HUNDRED_YEARS_MS + 1, 9e15, Number.NaN, Infinity, '5000']) {
      const error: ScratchpadError = await expectCode(
        pad.write('s1', 'bad', 'x', { ttlMs: ttlMs as number }),
        'INVALID_ARGUMENT',
      );
      expect(error.message).toContain('1000 (one second) to 3155760000000 (100 years)');
      await expectCode(pad.update('s1', 'kept', { ttlMs: ttlMs as number }), 'INVALID_ARGUMENT');
    }
    await assertIntact(pad);
    expect((await pad.write('s1', 'low', 'x', { ttlMs: 1000 })).entry.expiresAt).not.toBeNull();
    expect((await pad.write('s1', 'high', 'x', { ttlMs: HUNDRED_YEARS_MS })).entry.expiresAt).not.toBeNull();
    expect((await pad.write('s1', 'none', 'x', { ttlMs: null })).entry.expiresAt).toBeNull();
  });

  test('pinned must be a boolean; a bad one stores nothing and breaks nothing', async () => {
    const pad = open();
    await pad.write('s1', 'kept', 'x');
    for (const pinned of ['yes', 1, null, {}]) {
      const error = await expectCode(
        pad.write('s1', 'bad', 'x', { pinned: pinned as boolean }),
        'INVALID_ARGUMENT',
      );
      expect(error.message).toContain('pinned must be true or false');
      await expectCode(pad.update('s1', 'kept', { pinned: pinned as boolean }), 'INVALID_ARGUMENT');
    }
    await assertIntact(pad);
    expect((await pad.get('s1', 'kept')).pinned).toBe(false);
  });

  test('metadata must be a bounded plain JSON object', async () => {
    const pad = open();
    await pad.write('s1', 'kept', 'x');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = {};
    for (let level = 0; level < 40; level++) deep = { deeper: deep };
    for (const metadata of [
      [1, 2],
      'text',
      null,
      { when: new Date(0) },
      { value: Number.NaN },
      { value: undefined },
      { call: () => 1 },
      { big: 10n },
      cyclic,
      deep,
      { blob: 'x'.repeat(70_000) },
    ]) {
      await expectCode(pad.write('s1', 'bad', 'x', { metadata: metadata as never }), 'INVALID_ARGUMENT');
      await expectCode(pad.update('s1', 'kept', { metadata: metadata as never }), 'INVALID_ARGUMENT');
    }
    await assertIntact(pad);
    const nested = { a: [1, 'two', null, true, { b: 2.5 }], c: {} };
    expect((await pad.write('s1', 'good', 'x', { metadata: nested })).entry.metadata).toEqual(nested);
  });

  test('list options are checked: orderBy one of three, limit a whole number from 1 to 100,000', async () => {
    const pad = open();
    await pad.write('s1', 'kept', 'x');
    for (const orderBy of ['size', 'name; DROP TABLE entries', '', 42]) {
      const error = await expectCode(pad.list('s1', { orderBy: orderBy as 'name' }), 'INVALID_ARGUMENT');
      expect(error.message).toContain('orderBy must be one of name, createdAt, updatedAt');
    }
    for (const limit of [0, -1, 1.5, Number.NaN, Infinity, 100_001, '10']) {
      const error = await expectCode(pad.list('s1', { limit: limit as number }), 'INVALID_ARGUMENT');
      expect(error.message).toContain('from 1 to 100,000');
    }
    await expectCode(pad.list('s1', { prefix: 7 as unknown as string }), 'INVALID_ARGUMENT');
    await assertIntact(pad);
    expect((await pad.list('s1', { limit: 100_000, orderBy: 'updatedAt' })).entries.length).toBe(1);
  });

  test('ifVersion and the write mode are checked everywhere', async () => {
    const pad = open();
    await pad.write('s1', 'kept', 'x');
    for (const ifVersion of [-1, 1.5, '1', Number.NaN]) {
      await expectCode(pad.write('s1', 'kept', 'y', { ifVersion: ifVersion as number }), 'INVALID_ARGUMENT');
      await expectCode(pad.update('s1', 'kept', { ifVersion: ifVersion as number }), 'INVALID_ARGUMENT');
      await expectCode(pad.delete('s1', 'kept', { ifVersion: ifVersion as number }), 'INVALID_ARGUMENT');
      await expectCode(
        pad.edit('s1', 'kept', { oldText: 'x', newText: 'z', ifVersion: ifVersion as number }),
        'INVALID_ARGUMENT',
      );
    }
    await expectCode(pad.write('s1', 'bad', 'y', { mode: 'upsert' as 'replace' }), 'INVALID_ARGUMENT');
    await expectCode(pad.write('s1', 'bad', 'y', { mediaType: 'a\nb' }), 'INVALID_ARGUMENT');
    await assertIntact(pad);
    expect((await pad.read('s1', 'kept')).content).toBe('x');
  });

  test('a malformed slice is INVALID_ARGUMENT naming the accepted shapes, never a TypeError', async () => {
    const pad = open();
    await pad.write('s1', 'kept', 'one\ntwo\nthree');
    const malformed: unknown[] = [
      { lines: 'abc' },
      { bytes: { start: -1 } },
      { type: 'lines', start: 'abc' },
      { type: 'lines', start: 1, end: '2' },
      { type: 'range', start: { start: 0 } },
      { type: 'head' },
      { type: 'offset', offset: 0 },
      { type: 'bytes', start: 0 },
      { type: 42 },
      'head',
      null,
      [],
      7,
    ];
    for (const slice of malformed) {
      const error = await expectCode(pad.read('s1', 'kept', slice as never), 'INVALID_ARGUMENT');
      expect(error.hint).toContain('{type: "head" | "tail", count}');
      await expectCode(pad.stream('s1', 'kept', slice as never), 'INVALID_ARGUMENT');
    }
    await expectCode(pad.read('s1', 'kept', { type: 'lines', start: 1.5 }), 'INVALID_ARGUMENT');
    await expectCode(pad.read('s1', 'kept', { type: 'range', start: -1 }), 'INVALID_ARGUMENT');
    await assertIntact(pad);
    expect((await pad.read('s1', 'kept', { type: 'lines', start: 2, end: 2 })).content).toBe('two\n');
  });

  test('a search limit is a whole number from 1 to 1,000; a bad one is INVALID_ARGUMENT, not "no limit"', async () => {
    const pad = open();
    await pad.write('s1', 'kept', 'needle in a haystack');
    for (const limit of [0, -1, -10, 1.5, 1001, Number.NaN, Infinity, '5', null]) {
      const error = await expectCode(
        pad.search('s1', 'needle', { limit: limit as number }),
        'INVALID_ARGUMENT',
      );
      expect(error.message).toContain('from 1 to 1,000');
    }
    await assertIntact(pad);
    expect((await pad.search('s1', 'needle', { limit: 1 })).hits.map((hit) => hit.entry.name)).toEqual([
      'kept',
    ]);
    expect((await pad.search('s1', 'needle', { limit: 1000 })).hits).toHaveLength(1);
  });
}
