import { expect } from 'vitest';
import type { Chunk } from '../core/chunk.js';
import { Chunker } from '../core/chunker.js';
import type { EntryRecord } from '../core/entry.js';
import type { ContentSink, StoreDriver } from '../stores/driver.js';
import type { ContractHarness } from './contract-harness.js';
import { testRecord } from './test-record.js';

/** Three chunks of 16 bytes and one of 8 (offsets on every axis checked by the clipping case). */
const TEXT = 'first chunk....\nsecond chunk...\nthird chunk....\nfourth!\n';
const CHUNK_SIZE = 16;

/**
 * The driver spec itself, called directly (not through the service): what a commit with the wrong version, a
 * sweep beside an open sink, an abort, an out-of-range chunk range and a locate in empty content answer. Each
 * answer is the one `stores/driver.ts` documents.
 */
export function driverContract({ test, driver, reopen }: ContractHarness): void {
  test('driver: a commit with the wrong version changes nothing and leaves the staging area to the caller', async () => {
    const store = driver();
    const first = await commitText(store, testRecord({ name: 'doc' }), 'v1', null);
    const sink = await stage(store, 's1', TEXT);
    const record = recordFor(first, sink, TEXT);
    for (const expectedVersion of [null, 5]) {
      const result = await store.doCommit({
        mode: 'replace',
        record,
        expectedVersion,
        stagingId: sink.stagingId,
      });
      expect(result).toEqual({ ok: false, current: first });
    }
    expect(
      await store.doCommit({
        mode: 'metadata',
        record: { ...first, version: 3, pinned: true },
        expectedVersion: 2,
      }),
    ).toEqual({ ok: false, current: first });
    const tail = await stage(store, 's1', 'more');
    expect(
      await store.doCommit({
        mode: 'append',
        record: { ...recordFor(first, tail, 'v1more'), chunkCount: 1 + chunksOf('more').length },
        expectedVersion: 7,
        stagingId: tail.stagingId,
        keepChunks: 1,
      }),
    ).toEqual({ ok: false, current: first });
    await tail.abort();
    const absent = testRecord({ session: 'elsewhere', name: 'absent', version: 2 });
    expect(await store.doCommit({ mode: 'metadata', record: absent, expectedVersion: 1 })).toEqual({
      ok: false,
      current: undefined,
    });
    expect(await store.doGetEntry('elsewhere', 'absent')).toBeUndefined();
    expect((await store.doListSessions()).map((session) => session.id)).toEqual(['s1']);
    expect(await contentOf(store, (await store.doGetEntry('s1', 'doc')) as EntryRecord)).toBe('v1');
    // The staged content is still the caller's: the same staging area commits with the right version.
    const retried = await store.doCommit({
      mode: 'replace',
      record,
      expectedVersion: 1,
      stagingId: sink.stagingId,
    });
    expect(retried).toMatchObject({ ok: true, previous: first, record: { version: 2, bytes: record.bytes } });
    expect(await contentOf(store, (await store.doGetEntry('s1', 'doc')) as EntryRecord)).toBe(TEXT);
  });

  test('driver: a commit that expects another id loses, though the version matches (a name created again)', async () => {
    const store = driver();
    const gone = await commitText(store, testRecord({ name: 'doc' }), 'old', null);
    expect(await store.doDeleteEntry(gone)).toBe(true);
    const again = await commitText(store, testRecord({ name: 'doc', id: 'a1b2c3d4e5f60718' }), 'v1', null);
    expect(again.version).toBe(gone.version);
    const small = await stage(store, 's1', TEXT);
    // Enough chunks that a driver buffering small contents has to stage these in the store.
    const many = TEXT.repeat(40);
    const large = await stage(store, 's1', many);
    const tail = await stage(store, 's1', 'more');
    const stale = { expectedVersion: again.version, expectedId: gone.id };
    const lost = [
      {
        mode: 'replace' as const,
        record: recordFor(gone, small, TEXT),
        stagingId: small.stagingId,
        ...stale,
      },
      {
        mode: 'replace' as const,
        record: recordFor(gone, large, many),
        stagingId: large.stagingId,
        ...stale,
      },
      { mode: 'metadata' as const, record: { ...gone, version: gone.version + 1, pinned: true }, ...stale },
      {
        mode: 'append' as const,
        record: { ...recordFor(gone, tail, 'v1more'), chunkCount: 1 + chunksOf('more').length },
        stagingId: tail.stagingId,
        keepChunks: 1,
        ...stale,
      },
    ];
    for (const request of lost) expect(await store.doCommit(request)).toEqual({ ok: false, current: again });
    expect(await contentOf(store, (await store.doGetEntry('s1', 'doc')) as EntryRecord)).toBe('v1');
    const right = await store.doCommit({
      mode: 'replace',
      record: recordFor(again, small, TEXT),
      stagingId: small.stagingId,
      expectedVersion: again.version,
      expectedId: again.id,
    });
    expect(right).toMatchObject({
      ok: true,
      previous: again,
      record: { id: 'a1b2c3d4e5f60718', version: 2 },
    });
    await Promise.all([large.abort(), tail.abort()]);
  });

  test('driver: a sweep never takes a staging area whose sink is open, however old', async () => {
    const store = driver();
    const sink = await store.doStage('s1');
    const [head, ...rest] = chunksOf(TEXT);
    await sink.write(head as Chunk);
    expect((await store.doSweepStaging(0)).staging).toBe(0);
    for (const chunk of rest) await sink.write(chunk);
    expect((await store.doSweepStaging(0)).staging).toBe(0);
    const record = testRecord({ ...facts(TEXT), contentId: sink.stagingId });
    const result = await store.doCommit({
      mode: 'replace',
      record,
      expectedVersion: null,
      stagingId: sink.stagingId,
    });
    expect(result.ok).toBe(true);
    expect(await contentOf(store, (await store.doGetEntry('s1', 'doc')) as EntryRecord)).toBe(TEXT);
    expect((await store.doSweepStaging(0)).staging).toBe(0);
  });

  if (reopen) {
    test('driver: closing a driver discards the staging areas of its open sinks', async () => {
      const sink = await stage(driver(), 's1', TEXT);
      const next = await reopen();
      await expect(sink.write(chunksOf('late')[0] as Chunk)).rejects.toThrow();
      expect(await next.doListEntries({})).toEqual([]);
      expect((await next.doSweepStaging(0)).staging).toBe(0);
    });
  }

  test('driver: abort discards the staged content, is idempotent, and after a commit changes nothing', async () => {
    const store = driver();
    const aborted = await stage(store, 's1', TEXT);
    await aborted.abort();
    await aborted.abort();
    await expect(aborted.write(chunksOf('late')[0] as Chunk)).rejects.toThrow();
    const record = testRecord({ ...facts(TEXT), contentId: aborted.stagingId });
    await expect(
      store.doCommit({ mode: 'replace', record, expectedVersion: null, stagingId: aborted.stagingId }),
    ).rejects.toThrow();
    expect(await store.doGetEntry('s1', 'doc')).toBeUndefined();
    expect(await store.doListSessions()).toEqual([]);
    expect((await store.doSweepStaging(0)).staging).toBe(0);

    const committed = await stage(store, 's1', TEXT);
    const result = await store.doCommit({
      mode: 'replace',
      record: { ...record, contentId: committed.stagingId },
      expectedVersion: null,
      stagingId: committed.stagingId,
    });
    expect(result.ok).toBe(true);
    await committed.abort();
    await expect(committed.write(chunksOf('late')[0] as Chunk)).rejects.toThrow();
    expect(await contentOf(store, (await store.doGetEntry('s1', 'doc')) as EntryRecord)).toBe(TEXT);
  });

  test('driver: a chunk range is clipped to the content, and an empty or reversed range reads nothing', async () => {
    const store = driver();
    const record = await commitText(store, testRecord(), TEXT, null);
    const expected = chunksOf(TEXT);
    expect(record.chunkCount).toBe(4);
    const read = async (start: number, end: number): Promise<Chunk[]> =>
      store.doReadChunks(record, start, end);
    const seqs = async (start: number, end: number): Promise<number[]> =>
      (await read(start, end)).map((chunk) => chunk.seq);
    expect(await seqs(-3, 2)).toEqual([0, 1]);
    expect(await seqs(1, 1000)).toEqual([1, 2, 3]);
    expect(await seqs(0, Number.MAX_SAFE_INTEGER)).toEqual([0, 1, 2, 3]);
    expect(await seqs(2, 1)).toEqual([]);
    expect(await seqs(2, 2)).toEqual([]);
    expect(await seqs(4, 9)).toEqual([]);
    expect(await seqs(-5, 0)).toEqual([]);
    const chunks = await read(0, 4);
    expect(chunks.map(({ data, ...info }) => ({ ...info, text: Buffer.from(data).toString() }))).toEqual(
      expected.map(({ data, ...info }) => ({ ...info, text: Buffer.from(data).toString() })),
    );
  });

  test('driver: locate answers the chunk holding a position, 0 for empty content on every axis', async () => {
    const store = driver();
    const empty = await commitText(store, testRecord({ name: 'empty' }), '', null);
    expect(empty.chunkCount).toBe(0);
    for (const axis of ['byte', 'char', 'line'] as const) {
      for (const position of [0, 1, 1000]) expect(await store.doLocateChunk(empty, axis, position)).toBe(0);
    }
    expect(await store.doReadChunks(empty, 0, 1)).toEqual([]);
    const record = await commitText(store, testRecord({ name: 'doc' }), TEXT, null);
    const located = async (axis: 'byte' | 'char' | 'line', position: number): Promise<number> =>
      store.doLocateChunk(record, axis, position);
    expect([await located('byte', 0), await located('byte', 15), await located('byte', 16)]).toEqual([
      0, 0, 1,
    ]);
    expect([await located('char', 47), await located('char', 48), await located('char', 10_000)]).toEqual([
      2, 3, 3,
    ]);
    // `line` counts the newlines before the position: line 2 (one newline before it) starts in chunk 1.
    expect([await located('line', 0), await located('line', 1), await located('line', 3)]).toEqual([0, 1, 3]);
    expect(await located('byte', -1)).toBe(0);
  });

  test('driver: a chunk read at a position (where the driver has one) is the located chunk, read', async () => {
    const store = driver();
    const readAt = store.doReadChunkAt?.bind(store);
    if (readAt === undefined) return;
    const empty = await commitText(store, testRecord({ name: 'empty' }), '', null);
    for (const axis of ['byte', 'char', 'line'] as const)
      expect(await readAt(empty, axis, 0)).toBeUndefined();
    const record = await commitText(store, testRecord({ name: 'doc' }), TEXT, null);
    const limits = { byte: record.bytes, char: record.chars, line: record.lines };
    for (const axis of ['byte', 'char', 'line'] as const) {
      for (let position = -2; position <= limits[axis] + 2; position++) {
        const seq = await store.doLocateChunk(record, axis, position);
        const [expected] = await store.doReadChunks(record, seq, seq + 1);
        const found = await readAt(record, axis, position);
        expect({
          axis,
          position,
          chunk: found && { ...found, data: Buffer.from(found.data).toString() },
        }).toEqual({
          axis,
          position,
          chunk: expected && { ...expected, data: Buffer.from(expected.data).toString() },
        });
      }
    }
  });
}

function chunksOf(text: string): Chunk[] {
  const chunker = new Chunker(CHUNK_SIZE);
  return [...chunker.push(Buffer.from(text)), ...chunker.flush()];
}

/** The counts of `text` an entry record carries. */
function facts(text: string): Partial<EntryRecord> {
  const chunks = chunksOf(text);
  return {
    bytes: Buffer.byteLength(text),
    chars: [...text].length,
    lines: text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0),
    chunkCount: chunks.length,
  };
}

async function stage(store: StoreDriver, session: string, text: string): Promise<ContentSink> {
  const sink = await store.doStage(session);
  for (const chunk of chunksOf(text)) await sink.write(chunk);
  return sink;
}

/** `record` for the content staged in `sink`, one version after `previous`. */
function recordFor(previous: EntryRecord, sink: ContentSink, text: string): EntryRecord {
  return { ...previous, ...facts(text), version: previous.version + 1, contentId: sink.stagingId };
}

async function commitText(
  store: StoreDriver,
  base: EntryRecord,
  text: string,
  expectedVersion: number | null,
): Promise<EntryRecord> {
  const sink = await stage(store, base.session, text);
  const result = await store.doCommit({
    mode: 'replace',
    record: { ...base, ...facts(text), contentId: sink.stagingId },
    expectedVersion,
    stagingId: sink.stagingId,
  });
  if (!result.ok) throw new Error(`the commit of "${base.name}" lost its compare-and-set`);
  return result.record;
}

async function contentOf(store: StoreDriver, record: EntryRecord): Promise<string> {
  const chunks = await store.doReadChunks(record, 0, record.chunkCount);
  return Buffer.concat(chunks.map((chunk) => chunk.data)).toString();
}
