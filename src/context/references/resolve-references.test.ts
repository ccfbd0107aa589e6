import { describe, expect, it } from 'vitest';
import { ScratchpadError } from '../../core/errors.js';
import { createScratchpad } from '../../service/scratchpad.js';
import { createMemoryDriver } from '../../stores/memory/index.js';
import { containsReference, resolveReferences } from './resolve-references.js';
import type { StepRecord } from './step-values.js';

async function setup() {
  const session = createScratchpad({ driver: createMemoryDriver() }).session('s');
  const big = `BEGIN ${'x'.repeat(20_000)} END`;
  const { entry } = await session.write('web_fetch_1', big);
  const steps: StepRecord[] = [
    {
      step: 1,
      tool: 'web_fetch',
      value: {
        kind: 'stored',
        entryId: entry.id,
        storedField: 'content',
        shell: { ok: true, metadata: { url: 'https://x', status: 200 } },
      },
    },
    {
      step: 2,
      tool: 'fs_write',
      value: {
        kind: 'inline',
        value: { ok: true, metadata: { bytes_written: 14, path: '/tmp/out.txt' }, items: ['a', 'b'] },
      },
    },
    { step: 3, tool: 'echo', value: { kind: 'inline', value: 'plain text' } },
  ];
  return { session, steps, big };
}

describe('resolveReferences', () => {
  it('resolves a whole-argument reference from the full stored content, not a preview', async () => {
    const { session, steps, big } = await setup();
    const result = await resolveReferences(
      { path: '/tmp/out.txt', content: '{{step1.content}}' },
      { session, steps },
    );
    expect(result.value).toEqual({ path: '/tmp/out.txt', content: big });
    expect(result.references).toEqual(['step1.content']);
    expect(result.steps).toEqual([1]);
  });

  it('keeps types for whole references and walks nested fields and array indexes', async () => {
    const { session, steps } = await setup();
    const result = await resolveReferences(
      {
        n: '{{ step2.metadata.bytes_written }}',
        meta: '{{step1.metadata}}',
        second: '{{step2.items.1}}',
        list: ['{{step1.metadata.status}}'],
      },
      { session, steps },
    );
    expect(result.value).toEqual({
      n: 14,
      meta: { url: 'https://x', status: 200 },
      second: 'b',
      list: [200],
    });
  });

  it('interpolates references inside longer strings and honours escapes', async () => {
    const { session, steps } = await setup();
    await session.write('plan', 'step one');
    const result = await resolveReferences(
      {
        text: 'wrote {{step2.metadata.bytes_written}} bytes to {{step2.metadata.path}}; plan: {{scratchpad:plan}}; literal \\{{step9.x}}',
      },
      { session, steps },
    );
    expect(result.value.text).toBe('wrote 14 bytes to /tmp/out.txt; plan: step one; literal {{step9.x}}');
  });

  it('resolves {{stepN}} to the whole observation, reassembled from the store', async () => {
    const { session, steps, big } = await setup();
    const result = await resolveReferences({ all: '{{step1}}', text: '{{step3}}' }, { session, steps });
    expect(result.value.all).toEqual({ ok: true, metadata: { url: 'https://x', status: 200 }, content: big });
    expect(result.value.text).toBe('plain text');
  });

  it('reads whole-JSON stored observations', async () => {
    const session = createScratchpad({ driver: createMemoryDriver() }).session('s');
    const { entry } = await session.write('api_1', JSON.stringify({ rows: [{ id: 7 }], total: 1 }));
    const steps: StepRecord[] = [
      { step: 1, tool: 'api', value: { kind: 'stored', entryId: entry.id, storedField: null, shell: {} } },
    ];
    expect((await resolveReferences({ id: '{{step1.rows.0.id}}' }, { session, steps })).value).toEqual({
      id: 7,
    });
  });

  it('fails with REFERENCE_UNRESOLVED naming what exists', async () => {
    const { session, steps } = await setup();
    const cases: Array<[unknown, RegExp, RegExp]> = [
      [{ a: '{{step7.content}}' }, /step 7 does not exist/, /Steps so far: 1, 2, 3/],
      [{ a: '{{step2.metadata.size}}' }, /step2\.metadata has no field "size"/, /bytes_written, path/],
      [{ a: '{{step3.content}}' }, /plain text/, /\{\{step3\}\}/],
      [{ a: 'x {{scratchpad:missing}}' }, /no entry "missing"/, /web_fetch_1/],
      [{ a: '{{steps.1}}' }, /neither/, /step1\.content/],
      [{ a: '{{step1..x}}' }, /empty part/, /step1\.metadata\.path/],
    ];
    for (const [args, message, hint] of cases) {
      const error = await resolveReferences(args, { session, steps }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(ScratchpadError.hasCode(error, 'REFERENCE_UNRESOLVED'), String(error)).toBe(true);
      expect((error as ScratchpadError).message).toMatch(message);
      expect((error as ScratchpadError).hint).toMatch(hint);
    }
  });

  it('bounds how much one reference may expand to', async () => {
    const { session, steps } = await setup();
    await expect(
      resolveReferences({ a: '{{step1.content}}' }, { session, steps, maxBytes: 100 }),
    ).rejects.toMatchObject({ code: 'CONTENT_TOO_LARGE' });
  });

  it('detects references', () => {
    expect(containsReference({ a: ['x', { b: 'see {{step1.content}}' }] })).toBe(true);
    expect(containsReference({ a: 'no refs {here}', b: '\\{{step1.x}}' })).toBe(false);
  });
});
