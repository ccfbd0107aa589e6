import { expect } from 'vitest';
import type { ContractHarness } from './contract-harness.js';
import { expectCode } from './expect-code.js';

/**
 * Leases and views of the store contract: a lease gives one agent the right to change a name until it is released
 * or lapses (others get `LEASED` naming the holder and the expiry; compare-and-set still applies), and a view is a
 * bounded, read-only window on a session.
 */
export function leaseContract({ open, test, tick, now }: ContractHarness): void {
  test('a lease lets only its holder change the name until it is released or lapses', async () => {
    const pad = open();
    const parent = pad.session('s1', { agent: 'parent' });
    const child = pad.session('s1', { agent: 'child' });
    await parent.write('plan', 'v1');
    const lease = await child.lease('plan', { ttlSeconds: 60 });
    expect(lease).toMatchObject({ name: 'plan', holder: 'child', expiresAt: now() + 60_000, version: 2 });
    for (const attempt of [
      () => parent.write('plan', 'v2'),
      () => parent.write('plan', 'more', { mode: 'append' }),
      () => parent.edit('plan', { oldText: 'v1', newText: 'x' }),
      () => parent.update('plan', { pinned: true }),
      () => parent.delete('plan'),
      () => parent.lease('plan', { ttlSeconds: 10 }),
    ]) {
      const error = await expectCode(attempt(), 'LEASED');
      expect(error.details).toMatchObject({ name: 'plan', holder: 'child', expiresAt: now() + 60_000 });
      expect(error.message).toContain('"child"');
    }
    expect((await child.write('plan', 'child v3', { ifVersion: 2 })).entry.version).toBe(3);
    await expectCode(child.write('plan', 'stale', { ifVersion: 2 }), 'VERSION_CONFLICT');
    expect((await child.read('plan')).content).toBe('child v3');
    expect((await child.lease('plan', { ttlSeconds: 120 })).expiresAt).toBe(now() + 120_000);
    expect(await parent.release('plan')).toBe(false);
    expect(await child.release('plan')).toBe(true);
    expect((await parent.write('plan', 'parent again')).entry.metadata).toEqual({});

    await child.lease('plan', { ttlSeconds: 30 });
    tick(30_000);
    expect((await parent.write('plan', 'after the lapse')).entry.version).toBeGreaterThan(3);
  });

  test('a lease on a new name reserves it; metadata writes keep the lease; the id is the same', async () => {
    const pad = open();
    const a = pad.session('s1', { agent: 'a' });
    const b = pad.session('s1', { agent: 'b' });
    await a.lease('draft', { ttlSeconds: 60 });
    expect((await b.read('draft')).content).toBe('');
    await expectCode(b.write('draft', 'mine', { mode: 'create' }), 'ENTRY_EXISTS');
    await expectCode(b.write('draft', 'mine'), 'LEASED');
    const written = await a.write('draft', 'text', { metadata: { topic: 'x' } });
    expect(written.entry.metadata).toMatchObject({ topic: 'x', 'scratchpad:lease': { holder: 'a' } });
    await a.update('draft', { metadata: { topic: 'y' } });
    await expectCode(b.write('draft', 'mine'), 'LEASED');
    await expectCode(pad.lease('s1', 'draft', { ttlSeconds: 0, holder: 'a' }), 'INVALID_ARGUMENT');
    await expectCode(pad.lease('s1', 'draft', { ttlSeconds: 10, holder: '' }), 'INVALID_ARGUMENT');
  });

  test('two agents racing for one lease: exactly one gets it', async () => {
    const pad = open();
    await pad.write('s1', 'task', 'open');
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, index) =>
        pad.session('s1', { agent: `worker-${index}` }).lease('task', { ttlSeconds: 60 }),
      ),
    );
    const won = results.filter((result) => result.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const result of results)
      if (result.status === 'rejected') expect((result.reason as { code?: string }).code).toBe('LEASED');
  });

  test("a view is a bounded, read-only window on a parent's entries", async () => {
    const pad = open();
    const parent = pad.session('s1', { agent: 'parent' });
    await parent.write('research.a', 'alpha findings');
    await parent.write('research.b', 'beta findings');
    const secret = await parent.write('private.notes', 'not for the child');
    const view = parent.view({ prefix: 'research.' });
    expect((await view.list()).entries.map((entry) => entry.name)).toEqual(['research.a', 'research.b']);
    expect(await view.list({ prefix: 'private.' })).toEqual({ entries: [] });
    expect((await view.read('research.a')).content).toBe('alpha findings');
    expect((await view.grep('research.b', { pattern: 'beta' })).total).toBe(1);
    await expectCode(view.read('private.notes'), 'ENTRY_NOT_FOUND');
    await expectCode(view.read({ id: secret.entry.id }), 'ENTRY_NOT_FOUND');
    expect(await view.find('private.notes')).toBeUndefined();
    const hits = (await view.search('findings not child')).hits.map((hit) => hit.entry.name);
    expect(hits.every((name) => name.startsWith('research.'))).toBe(true);
    for (const attempt of [
      () => view.write('research.c', 'x'),
      () => view.edit('research.a', { oldText: 'alpha', newText: 'x' }),
      () => view.update('research.a', { pinned: true }),
      () => view.delete('research.a'),
      () => view.lease('research.a', { ttlSeconds: 10 }),
    ])
      await expectCode(attempt(), 'READ_ONLY');
    const writable = parent.view({ prefix: 'child.', readOnly: false });
    await writable.write('child.out', 'result');
    await expectCode(writable.write('research.a', 'x'), 'READ_ONLY');
    expect((await parent.read('child.out')).content).toBe('result');
    expect(
      (await view.view({ prefix: '', readOnly: false }).list()).entries.map((entry) => entry.name),
    ).toEqual(['research.a', 'research.b']);
  });
}
