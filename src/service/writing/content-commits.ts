import type { Hash } from 'node:crypto';
import { lineCount } from '../../core/chunker.js';
import type { EntryRecord } from '../../core/entry.js';
import { toEntry } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import { expiry } from '../entry-expiry.js';
import { keepLease } from '../leases.js';
import { newId } from '../new-id.js';
import { ChunkCursor } from '../reading/chunk-cursor.js';
import type { ServiceContext } from '../service-context.js';
import type { WriteOptions, WriteResult } from '../types.js';
import { type ContentInput, isStringInput } from './content-input.js';
import { decideKind, defaultMediaType } from './content-kind.js';
import { newContentHash, stageContent } from './content-writer.js';
import { makeRoom } from './store-capacity.js';
import type { WriteTarget } from './write-target.js';

/**
 * Stages `content` and commits it as the entry's whole content; `undefined` when another writer won the race.
 * `target` is what the write replaces (see {@link WriteTarget}). With `rebuild`, `target` was a guess: a commit
 * that finds another entry (or none) builds the record again from the entry as stored (`rebuild` runs the
 * write's checks on it and throws what they throw) and commits the same staged content once more.
 */
export async function replaceContent(
  context: ServiceContext,
  session: string,
  name: string,
  target: WriteTarget,
  content: ContentInput,
  options: WriteOptions,
  rebuild?: (found: EntryRecord | undefined) => WriteTarget,
): Promise<WriteResult | undefined> {
  const hash = newContentHash();
  const staged = await stageContent(context.driver, session, content, {
    chunkSize: context.chunkSize,
    maxBytes: context.maxEntryBytes,
    hash,
  });
  try {
    const kind = decideKind(options.kind, isStringInput(content), staged);
    const sha256 = hash.copy().digest('hex');
    for (let guessed = rebuild !== undefined; ; guessed = false) {
      const { current, stored } = target;
      await makeRoom(context, {
        session,
        name,
        growth: staged.bytes - (stored?.bytes ?? 0),
        bytes: staged.bytes,
      });
      const now = context.now();
      const record: EntryRecord = {
        id: current?.id ?? newId(),
        name,
        session,
        turn: pick(options.turn, current?.turn, null),
        step: pick(options.step, current?.step, null),
        source: pick(options.source, current?.source, null),
        kind,
        mediaType:
          options.mediaType ??
          (current?.kind === kind ? current.mediaType : undefined) ??
          defaultMediaType(kind),
        bytes: staged.bytes,
        chars: kind === 'text' ? staged.chars : 0,
        lines: kind === 'text' ? lineCount(staged.bytes, staged.newlines, staged.lastByte) : 0,
        sha256,
        createdAt: current?.createdAt ?? now,
        updatedAt: now,
        expiresAt: expiry(context, options.ttlMs, now),
        pinned: options.pinned ?? current?.pinned ?? false,
        evictable: options.evictable ?? current?.evictable ?? false,
        version: (current?.version ?? 0) + 1,
        metadata: keepLease(options, current, now),
        contentId: staged.sink.stagingId,
        chunkCount: staged.chunks,
      };
      const result = await context.driver.doCommit({
        mode: 'replace',
        record,
        expectedVersion: stored ? stored.version : null,
        ...(stored ? { expectedId: stored.id } : {}),
        stagingId: staged.sink.stagingId,
      });
      if (!result.ok) {
        if (guessed && rebuild) {
          target = rebuild(result.current);
          continue;
        }
        await staged.sink.abort();
        return undefined;
      }
      return written(context, result.record, hash, current, staged.bytes);
    }
  } catch (error) {
    await staged.sink.abort();
    throw error;
  }
}

/**
 * Appends `content`: stages it (with the last chunk when that is small) and commits it after the kept chunks;
 * `undefined` when another writer won the race.
 */
export async function appendContent(
  context: ServiceContext,
  current: EntryRecord,
  content: ContentInput,
  options: WriteOptions,
): Promise<WriteResult | undefined> {
  const cursor = new ChunkCursor(context.driver, current);
  // sha256 covers the whole entry: continue the hash of the version this process wrote when it has it, else hash
  // the existing content. Either way keep the last chunk: when it is small it is rewritten together with the new
  // bytes, so many small appends do not leave many tiny chunks.
  const resumed = context.hashStates.take(current);
  const hash = resumed ?? newContentHash();
  let last: Awaited<ReturnType<ChunkCursor['chunk']>> | undefined;
  if (resumed) {
    if (current.chunkCount > 0) last = await cursor.chunk(current.chunkCount - 1);
  } else {
    for (let seq = 0; seq < current.chunkCount; seq += 16) {
      for (const chunk of await cursor.chunks(seq, seq + 16)) {
        last = chunk;
        if (chunk.seq < current.chunkCount - 1 || chunk.bytes >= context.chunkSize / 2)
          hash.update(chunk.data);
      }
      cursor.forget(seq, seq + 16);
    }
  }
  const rewriteTail = last !== undefined && last.bytes < context.chunkSize / 2;
  const keepChunks = rewriteTail ? current.chunkCount - 1 : current.chunkCount;
  const staged = await stageContent(context.driver, current.session, content, {
    chunkSize: context.chunkSize,
    maxBytes: context.maxEntryBytes - current.bytes,
    hash,
    ...(rewriteTail && last ? { prefix: last.data, prefixHashed: resumed !== undefined } : {}),
  });
  try {
    const appended = staged.bytes - (rewriteTail && last ? last.bytes : 0);
    if (current.kind === 'text' && !staged.utf8) {
      throw new ScratchpadError(
        'NOT_TEXT',
        `Cannot append bytes that are not UTF-8 text to the text entry "${current.name}".`,
        {
          hint: 'Append text, or write the data to a new binary entry.',
        },
      );
    }
    await makeRoom(context, {
      session: current.session,
      name: current.name,
      growth: appended,
      bytes: current.bytes + appended,
    });
    const kept = {
      bytes: rewriteTail && last ? last.byteStart : current.bytes,
      chars: rewriteTail && last ? last.charStart : current.chars,
      newlines: rewriteTail && last ? last.lineStart : last ? last.lineStart + last.newlines : 0,
    };
    const bytes = kept.bytes + staged.bytes;
    const newlines = kept.newlines + staged.newlines;
    const lastByte = staged.bytes > 0 ? staged.lastByte : last ? (last.data[last.bytes - 1] ?? -1) : -1;
    const now = context.now();
    const record: EntryRecord = {
      ...current,
      turn: pick(options.turn, current.turn, null),
      step: pick(options.step, current.step, null),
      source: pick(options.source, current.source, null),
      mediaType: options.mediaType ?? current.mediaType,
      bytes,
      chars: current.kind === 'text' ? kept.chars + staged.chars : 0,
      lines: current.kind === 'text' ? lineCount(bytes, newlines, lastByte) : 0,
      sha256: hash.copy().digest('hex'),
      updatedAt: now,
      expiresAt: options.ttlMs === undefined ? current.expiresAt : expiry(context, options.ttlMs, now),
      pinned: options.pinned ?? current.pinned,
      evictable: options.evictable ?? current.evictable,
      version: current.version + 1,
      metadata: keepLease(options, current, now),
      chunkCount: keepChunks + staged.chunks,
    };
    const result = await context.driver.doCommit({
      mode: 'append',
      record,
      expectedVersion: current.version,
      expectedId: current.id,
      stagingId: staged.sink.stagingId,
      keepChunks,
    });
    if (!result.ok) {
      await staged.sink.abort();
      return undefined;
    }
    return written(context, result.record, hash, current, appended);
  } catch (error) {
    await staged.sink.abort();
    throw error;
  }
}

/** Remembers a version just committed (its hash state, its record) and describes the write that made it. */
function written(
  context: ServiceContext,
  record: EntryRecord,
  hash: Hash,
  replaced: EntryRecord | undefined,
  writtenBytes: number,
): WriteResult {
  context.hashStates.remember(record, hash);
  context.knownRecords.remember(record);
  return {
    entry: toEntry(record),
    created: replaced === undefined,
    writtenBytes,
    ...(replaced
      ? { previous: { version: replaced.version, bytes: replaced.bytes, chars: replaced.chars } }
      : {}),
  };
}

/** The given value, else the current one, else the fallback (`null` counts as given). */
function pick<T>(given: T | undefined, current: T | undefined, fallback: T): T {
  return given !== undefined ? given : current !== undefined ? current : fallback;
}
