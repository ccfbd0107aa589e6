import { randomBytes } from 'node:crypto';
import { DEFAULT_CHUNK_SIZE } from '../core/chunk.js';
import { lineCount } from '../core/chunker.js';
import { type Entry, type EntryRecord, type SessionInfo, toEntry } from '../core/entry.js';
import { ScratchpadError } from '../core/errors.js';
import { formatBytes, formatCount } from '../core/format.js';
import type { JsonObject } from '../core/json.js';
import { describeLocation, type SliceLocation } from '../core/location.js';
import { assertValidName, assertValidSession } from '../core/names.js';
import { type ReadSlice, resolveLines, resolveSpan } from '../core/slice.js';
import { decodeUtf8 } from '../core/utf8.js';
import type { StoreDriver, StoreTotals } from '../stores/driver.js';
import { ChunkCursor } from './chunk-cursor.js';
import { type ContentInput, isStringInput } from './content-input.js';
import { newContentHash, type StagedContent, stageContent } from './content-writer.js';
import { type GrepOptions, prepareGrep, scanLines } from './grep-scan.js';
import { searchByScan } from './search-scan.js';
import type {
  EditOptions,
  EditResult,
  EntryRef,
  GcResult,
  GrepResult,
  ReadResult,
  SearchHit,
  UpdateOptions,
  WriteOptions,
  WriteResult,
} from './types.js';

/** Configuration of a {@link Scratchpad}. */
export interface ScratchpadConfig {
  driver: StoreDriver;
  /** Bytes per stored chunk (default 256 KiB). */
  chunkSize?: number;
  /** TTL applied to writes that do not give one; `null` (default) = keep. */
  defaultTtlMs?: number | null;
  /** Largest content one write may store (default 4 GiB). */
  maxEntryBytes?: number;
  /** Size cap for the whole store: past it the oldest expired, then oldest unpinned entries are evicted. */
  maxStoreBytes?: number;
  /** Largest slice `read()` returns as a string (default 64 MiB); stream bigger ones with `stream()`. */
  maxReadBytes?: number;
  /** Largest entry `edit()` rewrites in memory (default 64 MiB). */
  maxEditBytes?: number;
  /** Clock in epoch milliseconds (tests inject one). */
  now?: () => number;
}

const MAX_RETRIES = 5;

/**
 * The service every surface (library, tools, CLI, MCP, runtime) goes through: validation, slicing, lifecycle
 * and limits live here once for all backends. Create one with {@link createScratchpad}.
 */
export class Scratchpad {
  readonly driver: StoreDriver;
  readonly #chunkSize: number;
  readonly #defaultTtlMs: number | null;
  readonly #maxEntryBytes: number;
  readonly #maxStoreBytes: number | undefined;
  readonly #maxReadBytes: number;
  readonly #maxEditBytes: number;
  readonly #now: () => number;

  constructor(config: ScratchpadConfig) {
    this.driver = config.driver;
    this.#chunkSize = config.chunkSize ?? DEFAULT_CHUNK_SIZE;
    this.#defaultTtlMs = config.defaultTtlMs ?? null;
    this.#maxEntryBytes = config.maxEntryBytes ?? 4 * 1024 ** 3;
    this.#maxStoreBytes = config.maxStoreBytes;
    this.#maxReadBytes = config.maxReadBytes ?? 64 * 1024 ** 2;
    this.#maxEditBytes = config.maxEditBytes ?? 64 * 1024 ** 2;
    this.#now = config.now ?? Date.now;
  }

  /** A view of this scratchpad bound to one session. */
  session(session: string): SessionScratchpad {
    return new SessionScratchpad(this, assertValidSession(session));
  }

  // ── writes ──────────────────────────────────────────────────────────────────────────────────────────────

  /** Stores `content` under `name` (see {@link WriteOptions} for replace/append/create and compare-and-set). */
  async write(
    session: string,
    name: string,
    content: ContentInput,
    options: WriteOptions = {},
  ): Promise<WriteResult> {
    assertValidSession(session);
    assertValidName(name);
    validateWriteOptions(options);
    const retryable =
      options.ifVersion === undefined && (isStringInput(content) || content instanceof Uint8Array);
    for (let attempt = 0; ; attempt++) {
      const current = await this.#live(session, name);
      checkPrecondition(current, options.ifVersion, name, options.mode === 'create');
      const outcome =
        options.mode === 'append' && current
          ? await this.#append(current, content, options)
          : await this.#replace(session, name, current, content, options);
      if (outcome) return outcome;
      if (!retryable || attempt >= MAX_RETRIES)
        throw conflict(name, await this.driver.doGetEntry(session, name), options.ifVersion);
    }
  }

  async #replace(
    session: string,
    name: string,
    current: EntryRecord | undefined,
    content: ContentInput,
    options: WriteOptions,
  ): Promise<WriteResult | undefined> {
    const hash = newContentHash();
    const staged = await stageContent(this.driver, session, content, {
      chunkSize: this.#chunkSize,
      maxBytes: this.#maxEntryBytes,
      hash,
    });
    try {
      const kind = decideKind(options.kind, isStringInput(content), staged);
      await this.#makeRoom(staged.bytes - (current?.bytes ?? 0), session, name);
      const now = this.#now();
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
        sha256: hash.digest('hex'),
        createdAt: current?.createdAt ?? now,
        updatedAt: now,
        expiresAt: this.#expiry(options.ttlMs, now),
        pinned: options.pinned ?? current?.pinned ?? false,
        version: (current?.version ?? 0) + 1,
        metadata: options.metadata ?? current?.metadata ?? {},
        contentId: staged.sink.stagingId,
        chunkCount: staged.chunks,
      };
      const result = await this.driver.doCommit({
        mode: 'replace',
        record,
        expectedVersion: current ? current.version : null,
        stagingId: staged.sink.stagingId,
      });
      if (!result.ok) {
        await staged.sink.abort();
        return undefined;
      }
      return {
        entry: toEntry(result.record),
        created: current === undefined,
        writtenBytes: staged.bytes,
        ...(current
          ? { previous: { version: current.version, bytes: current.bytes, chars: current.chars } }
          : {}),
      };
    } catch (error) {
      await staged.sink.abort();
      throw error;
    }
  }

  async #append(
    current: EntryRecord,
    content: ContentInput,
    options: WriteOptions,
  ): Promise<WriteResult | undefined> {
    const cursor = new ChunkCursor(this.driver, current);
    const hash = newContentHash();
    // Hash the existing content (sha256 covers the whole entry) and keep the last chunk: when it is small it is
    // rewritten together with the new bytes, so many small appends do not leave many tiny chunks.
    let last: Awaited<ReturnType<ChunkCursor['chunk']>> | undefined;
    for (let seq = 0; seq < current.chunkCount; seq += 16) {
      for (const chunk of await cursor.chunks(seq, seq + 16)) {
        last = chunk;
        if (chunk.seq < current.chunkCount - 1 || chunk.bytes >= this.#chunkSize / 2) hash.update(chunk.data);
      }
      cursor.forget(seq, seq + 16);
    }
    const rewriteTail = last !== undefined && last.bytes < this.#chunkSize / 2;
    const keepChunks = rewriteTail ? current.chunkCount - 1 : current.chunkCount;
    const staged = await stageContent(this.driver, current.session, content, {
      chunkSize: this.#chunkSize,
      maxBytes: this.#maxEntryBytes - current.bytes,
      hash,
      ...(rewriteTail && last ? { prefix: last.data } : {}),
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
      await this.#makeRoom(appended, current.session, current.name);
      const kept = {
        bytes: rewriteTail && last ? last.byteStart : current.bytes,
        chars: rewriteTail && last ? last.charStart : current.chars,
        newlines: rewriteTail && last ? last.lineStart : last ? last.lineStart + last.newlines : 0,
      };
      const bytes = kept.bytes + staged.bytes;
      const newlines = kept.newlines + staged.newlines;
      const lastByte = staged.bytes > 0 ? staged.lastByte : last ? (last.data[last.bytes - 1] ?? -1) : -1;
      const now = this.#now();
      const record: EntryRecord = {
        ...current,
        turn: pick(options.turn, current.turn, null),
        step: pick(options.step, current.step, null),
        source: pick(options.source, current.source, null),
        mediaType: options.mediaType ?? current.mediaType,
        bytes,
        chars: current.kind === 'text' ? kept.chars + staged.chars : 0,
        lines: current.kind === 'text' ? lineCount(bytes, newlines, lastByte) : 0,
        sha256: hash.digest('hex'),
        updatedAt: now,
        expiresAt: options.ttlMs === undefined ? current.expiresAt : this.#expiry(options.ttlMs, now),
        pinned: options.pinned ?? current.pinned,
        version: current.version + 1,
        metadata: options.metadata ?? current.metadata,
        chunkCount: keepChunks + staged.chunks,
      };
      const result = await this.driver.doCommit({
        mode: 'append',
        record,
        expectedVersion: current.version,
        stagingId: staged.sink.stagingId,
        keepChunks,
      });
      if (!result.ok) {
        await staged.sink.abort();
        return undefined;
      }
      return {
        entry: toEntry(result.record),
        created: false,
        writtenBytes: appended,
        previous: { version: current.version, bytes: current.bytes, chars: current.chars },
      };
    } catch (error) {
      await staged.sink.abort();
      throw error;
    }
  }

  /** Replaces `oldText` with `newText` in a text entry (exactly one occurrence unless `replaceAll`). */
  async edit(session: string, ref: EntryRef, options: EditOptions): Promise<EditResult> {
    if (typeof options.oldText !== 'string' || options.oldText.length === 0) {
      throw new ScratchpadError('INVALID_ARGUMENT', 'oldText must be a non-empty string.', {
        hint: 'To replace the whole content, write the entry instead.',
      });
    }
    if (typeof options.newText !== 'string') {
      throw new ScratchpadError(
        'INVALID_ARGUMENT',
        'newText must be a string (use "" to delete the old text).',
      );
    }
    for (let attempt = 0; ; attempt++) {
      const current = await this.#resolve(session, ref);
      checkPrecondition(current, options.ifVersion, current.name, false);
      assertText(current, 'edit');
      if (current.bytes > this.#maxEditBytes) {
        throw new ScratchpadError(
          'CONTENT_TOO_LARGE',
          `"${current.name}" is ${formatBytes(current.bytes)}; edit works on entries up to ${formatBytes(this.#maxEditBytes)}.`,
          { hint: 'Read the part you need and write it to a new entry, then edit that.' },
        );
      }
      const text = decodeUtf8(await new ChunkCursor(this.driver, current).bytes(0, current.bytes));
      const positions = occurrences(text, options.oldText);
      if (positions.length === 0) {
        throw new ScratchpadError(
          'EDIT_NO_MATCH',
          `The text to replace does not occur in "${current.name}".`,
          {
            hint: 'Read the entry and copy the exact text, including whitespace and line breaks.',
            details: { name: current.name },
          },
        );
      }
      const lines = linesOf(text, positions);
      if (positions.length > 1 && !options.replaceAll) {
        throw new ScratchpadError(
          'EDIT_AMBIGUOUS',
          `The text to replace occurs ${positions.length} times in "${current.name}" (lines ${lines.slice(0, 20).join(', ')}).`,
          { hint: 'Include more surrounding text so it occurs once, or set replaceAll.', details: { lines } },
        );
      }
      const updated = options.replaceAll
        ? text.split(options.oldText).join(options.newText)
        : text.slice(0, positions[0]) +
          options.newText +
          text.slice((positions[0] as number) + options.oldText.length);
      const remaining = current.expiresAt === null ? null : Math.max(1, current.expiresAt - this.#now());
      const outcome = await this.#replace(current.session, current.name, current, updated, {
        ttlMs: remaining,
      });
      if (outcome) return { entry: outcome.entry, replacements: positions.length, lines };
      if (options.ifVersion !== undefined || attempt >= MAX_RETRIES) {
        throw conflict(
          current.name,
          await this.driver.doGetEntry(current.session, current.name),
          options.ifVersion,
        );
      }
    }
  }

  /** Changes an entry's metadata, pin or TTL without touching its content. */
  async update(session: string, ref: EntryRef, options: UpdateOptions): Promise<Entry> {
    if (options.ttlMs !== undefined && options.ttlMs !== null) validateTtl(options.ttlMs);
    for (let attempt = 0; ; attempt++) {
      const current = await this.#resolve(session, ref);
      checkPrecondition(current, options.ifVersion, current.name, false);
      const now = this.#now();
      const record: EntryRecord = {
        ...current,
        pinned: options.pinned ?? current.pinned,
        expiresAt: options.ttlMs === undefined ? current.expiresAt : this.#expiry(options.ttlMs, now),
        metadata: options.metadata ?? current.metadata,
        mediaType: options.mediaType ?? current.mediaType,
        updatedAt: now,
        version: current.version + 1,
      };
      const result = await this.driver.doCommit({
        mode: 'metadata',
        record,
        expectedVersion: current.version,
      });
      if (result.ok) return toEntry(result.record);
      if (options.ifVersion !== undefined || attempt >= MAX_RETRIES)
        throw conflict(current.name, result.current, options.ifVersion);
    }
  }

  /** Deletes an entry. */
  async delete(session: string, ref: EntryRef, options: { ifVersion?: number } = {}): Promise<Entry> {
    for (let attempt = 0; ; attempt++) {
      const current = await this.#resolve(session, ref, { includeExpired: true });
      checkPrecondition(current, options.ifVersion, current.name, false);
      if (await this.driver.doDeleteEntry(current)) return toEntry(current);
      if (options.ifVersion !== undefined || attempt >= MAX_RETRIES) {
        throw conflict(
          current.name,
          await this.driver.doGetEntry(current.session, current.name),
          options.ifVersion,
        );
      }
    }
  }

  // ── reads ───────────────────────────────────────────────────────────────────────────────────────────────

  /** The entry's metadata. */
  async get(session: string, ref: EntryRef): Promise<Entry> {
    return toEntry(await this.#resolve(session, ref));
  }

  /** The entry's metadata, or `undefined` when it does not exist (or expired). */
  async find(session: string, ref: EntryRef): Promise<Entry | undefined> {
    try {
      return await this.get(session, ref);
    } catch (error) {
      if (ScratchpadError.hasCode(error, 'ENTRY_NOT_FOUND')) return undefined;
      throw error;
    }
  }

  /**
   * Reads a slice. Text entries slice by characters or lines and return text; binary entries slice by bytes and
   * return base64 (default) or hex. The result says where the slice is, so a caller knows how to continue.
   */
  async read(
    session: string,
    ref: EntryRef,
    slice: ReadSlice = { type: 'full' },
    options: { encoding?: 'base64' | 'hex' } = {},
  ): Promise<ReadResult> {
    return this.#consistently(() => this.#read(session, ref, slice, options));
  }

  async #read(
    session: string,
    ref: EntryRef,
    slice: ReadSlice,
    options: { encoding?: 'base64' | 'hex' },
  ): Promise<ReadResult> {
    const record = await this.#resolve(session, ref);
    const cursor = new ChunkCursor(this.driver, record);
    const span = await this.#byteSpan(cursor, slice);
    if (span.end - span.start > this.#maxReadBytes) {
      throw new ScratchpadError(
        'CONTENT_TOO_LARGE',
        `That slice is ${formatBytes(span.end - span.start)}; read() returns at most ${formatBytes(this.#maxReadBytes)}.`,
        {
          hint: 'Read a smaller slice (head, range, lines) or stream it.',
          details: { bytes: span.end - span.start },
        },
      );
    }
    const bytes = await cursor.bytes(span.start, span.end);
    const location = await this.#locate(cursor, span);
    const encoding = record.kind === 'text' ? 'utf8' : (options.encoding ?? 'base64');
    return {
      entry: toEntry(record),
      content: record.kind === 'text' ? decodeUtf8(bytes) : bytes.toString(encoding),
      encoding,
      location,
      description: describeLocation(location),
      complete: span.start === 0 && span.end === record.bytes,
    };
  }

  /** Streams a slice as raw bytes (for the CLI and for slices too big for one string). */
  async stream(
    session: string,
    ref: EntryRef,
    slice: ReadSlice = { type: 'full' },
  ): Promise<{ entry: Entry; location: SliceLocation; pieces: AsyncIterable<Uint8Array> }> {
    return this.#consistently(async () => {
      const record = await this.#resolve(session, ref);
      const cursor = new ChunkCursor(this.driver, record);
      const span = await this.#byteSpan(cursor, slice);
      const location = await this.#locate(cursor, span);
      return { entry: toEntry(record), location, pieces: cursor.stream(span.start, span.end) };
    });
  }

  /** Lines of a text entry that match a regular expression, with line numbers and optional context. */
  async grep(session: string, ref: EntryRef, options: GrepOptions): Promise<GrepResult> {
    const prepared = prepareGrep(options);
    return this.#consistently(() => this.#grep(session, ref, options, prepared));
  }

  async #grep(
    session: string,
    ref: EntryRef,
    options: GrepOptions,
    prepared: ReturnType<typeof prepareGrep>,
  ): Promise<GrepResult> {
    const record = await this.#resolve(session, ref);
    assertText(record, 'grep');
    const cursor = new ChunkCursor(this.driver, record);
    const scan = await scanLines(cursor, prepared, options.stopAtMax ?? false);
    const result: GrepResult = {
      entry: toEntry(record),
      pattern: options.pattern,
      matches: scan.matches,
      total: scan.total,
      complete: scan.complete,
      description: describeGrep(scan.matches.length, scan.total, scan.complete, record.lines),
    };
    if (prepared.context > 0 && scan.matches.length > 0) {
      result.blocks = await this.#contextBlocks(cursor, scan.matches, prepared.context);
    }
    return result;
  }

  async #contextBlocks(
    cursor: ChunkCursor,
    matches: GrepResult['matches'],
    context: number,
  ): Promise<NonNullable<GrepResult['blocks']>> {
    const matched = new Set(matches.map((match) => match.line));
    const windows: Array<{ first: number; last: number }> = [];
    for (const match of matches) {
      const first = Math.max(1, match.line - context);
      const last = Math.min(cursor.record.lines, match.line + context);
      const previous = windows[windows.length - 1];
      if (previous && first <= previous.last + 1) previous.last = Math.max(previous.last, last);
      else windows.push({ first, last });
    }
    const clipped = new Map(matches.map((match) => [match.line, match.text]));
    const blocks: NonNullable<GrepResult['blocks']> = [];
    for (const window of windows) {
      const start = await cursor.byteOfLineStart(window.first);
      const end = await cursor.byteOfLineEnd(window.last);
      const text = decodeUtf8(await cursor.bytes(start, end));
      const lines = text.split('\n');
      if (lines[lines.length - 1] === '' && text.endsWith('\n')) lines.pop();
      blocks.push({
        lines: lines.map((line, index) => {
          const number = window.first + index;
          const isMatch = matched.has(number);
          return {
            line: number,
            text: isMatch ? (clipped.get(number) ?? line) : clipContext(line),
            match: isMatch,
          };
        }),
      });
    }
    return blocks;
  }

  /** Resolves a slice to a global byte span. */
  async #byteSpan(cursor: ChunkCursor, slice: ReadSlice): Promise<{ start: number; end: number }> {
    const record = cursor.record;
    if (slice.type === 'lines') {
      assertText(record, 'read lines of');
      const { first, last } = resolveLines(slice.start, slice.end, record.lines);
      return { start: await cursor.byteOfLineStart(first), end: await cursor.byteOfLineEnd(last) };
    }
    if (record.kind === 'binary') return resolveSpan(slice, record.bytes, 'bytes');
    const span = resolveSpan(slice, record.chars, 'chars');
    if (span.start === 0 && span.end === record.chars) return { start: 0, end: record.bytes };
    const start = await cursor.byteOfChar(span.start);
    const end = span.end === span.start ? start : await cursor.byteOfChar(span.end);
    return { start, end };
  }

  /** Describes a byte span on the entry's own axes. */
  async #locate(cursor: ChunkCursor, span: { start: number; end: number }): Promise<SliceLocation> {
    const record = cursor.record;
    if (record.kind === 'binary')
      return { unit: 'bytes', start: span.start, end: span.end, total: record.bytes };
    const first = await cursor.describeByte(span.start);
    const last = span.end > span.start ? await cursor.describeByte(span.end - 1) : first;
    const endChar = span.end === record.bytes ? record.chars : (await cursor.describeByte(span.end)).char;
    return {
      unit: 'chars',
      start: first.char,
      end: endChar,
      total: record.chars,
      lines: {
        first: Math.min(first.line, Math.max(1, record.lines)),
        last: Math.min(last.line, Math.max(1, record.lines)),
        total: record.lines,
      },
    };
  }

  // ── listing, sessions, lifecycle ────────────────────────────────────────────────────────────────────────

  /** Live entries of a session, by name (or by `orderBy`). */
  async list(
    session: string,
    options: {
      turn?: string;
      prefix?: string;
      limit?: number;
      orderBy?: 'name' | 'createdAt' | 'updatedAt';
    } = {},
  ): Promise<Entry[]> {
    assertValidSession(session);
    const now = this.#now();
    const records = await this.driver.doListEntries({ session, ...options });
    return records.filter((record) => !isExpired(record, now)).map(toEntry);
  }

  /** Live entries written during one turn (seed 000: the planner shows the model only its own turn). */
  listForTurn(session: string, turn: string): Promise<Entry[]> {
    return this.list(session, { turn, orderBy: 'createdAt' });
  }

  /** Ranked full-text search over a session's text entries (FTS5 BM25 on SQLite, a scan elsewhere). */
  async search(session: string, query: string, options: { limit?: number } = {}): Promise<SearchHit[]> {
    assertValidSession(session);
    if (typeof query !== 'string' || query.trim().length === 0) {
      throw new ScratchpadError('INVALID_ARGUMENT', 'The search query is empty.', {
        hint: 'Give one or more words.',
      });
    }
    const limit = options.limit ?? 10;
    const now = this.#now();
    const hits = this.driver.doSearch
      ? await this.driver.doSearch({ session, query, limit: limit * 2 })
      : await searchByScan(this.driver, session, query, limit * 2);
    return hits
      .filter((hit) => !isExpired(hit.record, now))
      .slice(0, limit)
      .map((hit) => ({ entry: toEntry(hit.record), score: hit.score, snippet: hit.snippet }));
  }

  /** Every session with its entry count and size. */
  sessions(): Promise<SessionInfo[]> {
    return this.driver.doListSessions();
  }

  /** One session's summary; `SESSION_NOT_FOUND` if it does not exist. */
  async sessionInfo(session: string): Promise<SessionInfo> {
    assertValidSession(session);
    const found = (await this.driver.doListSessions()).find((info) => info.id === session);
    if (!found) throw await this.#sessionNotFound(session);
    return found;
  }

  /** Deletes a session and everything in it. */
  async deleteSession(session: string): Promise<{ entries: number; bytes: number }> {
    assertValidSession(session);
    const deleted = await this.driver.doDeleteSession(session);
    if (!deleted) throw await this.#sessionNotFound(session);
    return deleted;
  }

  /** Totals over the whole store. */
  stats(): Promise<StoreTotals> {
    return this.driver.doStats();
  }

  /**
   * Removes expired unpinned entries, sweeps abandoned staging areas, and enforces the store's size cap
   * (oldest unpinned first). Returns what it freed.
   */
  async gc(): Promise<GcResult> {
    const now = this.#now();
    const removed: GcResult['removed'] = [];
    for (const record of await this.driver.doListEntries({
      expiredAt: now,
      pinned: false,
      orderBy: 'updatedAt',
    })) {
      if (await this.driver.doDeleteEntry(record)) {
        removed.push({
          session: record.session,
          name: record.name,
          id: record.id,
          bytes: record.bytes,
          reason: 'expired',
        });
      }
    }
    const staging = await this.driver.doSweepStaging(60 * 60 * 1000);
    if (this.#maxStoreBytes !== undefined) {
      const totals = await this.driver.doStats();
      if (totals.bytes > this.#maxStoreBytes)
        removed.push(...(await this.#evict(totals.bytes - this.#maxStoreBytes)));
    }
    return { removed, bytes: removed.reduce((sum, item) => sum + item.bytes, 0), staging };
  }

  /** Closes the driver. */
  close(): Promise<void> {
    return this.driver.close();
  }

  /** Runs a read again when a concurrent writer replaced the entry under it (its old chunks vanished). */
  async #consistently<T>(attempt: () => Promise<T>): Promise<T> {
    for (let tries = 0; ; tries++) {
      try {
        return await attempt();
      } catch (error) {
        const changed =
          ScratchpadError.hasCode(error, 'VERSION_CONFLICT') && error.details.changedWhileReading === true;
        if (!changed || tries >= MAX_RETRIES) throw error;
      }
    }
  }

  // ── internals ───────────────────────────────────────────────────────────────────────────────────────────

  /** Frees at least `needed` bytes from the cap before a write of `name` (which is never evicted). */
  async #makeRoom(growth: number, session: string, name: string): Promise<void> {
    if (this.#maxStoreBytes === undefined || growth <= 0) return;
    const totals = await this.driver.doStats();
    const over = totals.bytes + growth - this.#maxStoreBytes;
    if (over <= 0) return;
    const evicted = await this.#evict(over, { session, name });
    const freed = evicted.reduce((sum, item) => sum + item.bytes, 0);
    if (freed < over) {
      throw new ScratchpadError(
        'STORE_FULL',
        `The store is full: ${formatBytes(totals.bytes - freed)} of ${formatBytes(this.#maxStoreBytes)} used and nothing more can be evicted (the rest is pinned).`,
        { hint: 'Delete or unpin entries, or raise maxStoreBytes.', details: { needed: over - freed } },
      );
    }
  }

  async #evict(needed: number, keep?: { session: string; name: string }): Promise<GcResult['removed']> {
    const now = this.#now();
    const candidates = await this.driver.doListEntries({ pinned: false, orderBy: 'updatedAt' });
    // Expired entries go first, then the least recently written.
    candidates.sort((a, b) => Number(isExpired(b, now)) - Number(isExpired(a, now)));
    const removed: GcResult['removed'] = [];
    let freed = 0;
    for (const record of candidates) {
      if (freed >= needed) break;
      if (keep && record.session === keep.session && record.name === keep.name) continue;
      if (await this.driver.doDeleteEntry(record)) {
        freed += record.bytes;
        removed.push({
          session: record.session,
          name: record.name,
          id: record.id,
          bytes: record.bytes,
          reason: isExpired(record, now) ? 'expired' : 'cap',
        });
      }
    }
    return removed;
  }

  #expiry(ttlMs: number | null | undefined, now: number): number | null {
    if (ttlMs === null) return null;
    if (ttlMs === undefined) return this.#defaultTtlMs === null ? null : now + this.#defaultTtlMs;
    return now + ttlMs;
  }

  async #live(session: string, name: string): Promise<EntryRecord | undefined> {
    const record = await this.driver.doGetEntry(session, name);
    return record && !isExpired(record, this.#now()) ? record : undefined;
  }

  async #resolve(
    session: string,
    ref: EntryRef,
    options: { includeExpired?: boolean } = {},
  ): Promise<EntryRecord> {
    assertValidSession(session);
    let record: EntryRecord | undefined;
    if (typeof ref === 'string') {
      record = await this.driver.doGetEntry(session, assertValidName(ref));
    } else if (ref && typeof ref.id === 'string' && /^[0-9a-f]{16}$/.test(ref.id)) {
      record = await this.driver.doGetEntryById(ref.id);
      if (record && record.session !== session) record = undefined;
    } else {
      throw new ScratchpadError(
        'INVALID_ARGUMENT',
        `Invalid entry id ${JSON.stringify((ref as { id?: unknown })?.id)}: ids are 16 hex characters.`,
        {
          hint: 'Use the id from the observation that saved the entry, or address the entry by name.',
        },
      );
    }
    if (record && (options.includeExpired || !isExpired(record, this.#now()))) return record;
    throw await this.#notFound(session, ref, record);
  }

  async #notFound(
    session: string,
    ref: EntryRef,
    expired: EntryRecord | undefined,
  ): Promise<ScratchpadError> {
    const label = typeof ref === 'string' ? `"${ref}"` : `with id ${ref.id}`;
    const names = (await this.list(session, { limit: 21 })).map((entry) => entry.name);
    const listed =
      names.length === 0
        ? 'The session has no entries.'
        : `Entries in this session: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}.`;
    return new ScratchpadError(
      'ENTRY_NOT_FOUND',
      expired
        ? `Entry ${label} expired at ${new Date(expired.expiresAt as number).toISOString()} in session "${session}".`
        : `No entry ${label} in session "${session}".`,
      { hint: listed, details: { session, ref, names: names.slice(0, 20) } },
    );
  }

  async #sessionNotFound(session: string): Promise<ScratchpadError> {
    const sessions = (await this.driver.doListSessions()).map((info) => info.id);
    return new ScratchpadError('SESSION_NOT_FOUND', `No session "${session}".`, {
      hint:
        sessions.length === 0
          ? 'The store has no sessions yet.'
          : `Sessions: ${sessions.slice(0, 20).join(', ')}${sessions.length > 20 ? ', …' : ''}.`,
      details: { session, sessions: sessions.slice(0, 20) },
    });
  }
}

/** A {@link Scratchpad} bound to one session: the same methods without the session argument. */
export class SessionScratchpad {
  readonly scratchpad: Scratchpad;
  readonly id: string;

  constructor(scratchpad: Scratchpad, session: string) {
    this.scratchpad = scratchpad;
    this.id = session;
  }

  write(name: string, content: ContentInput, options?: WriteOptions): Promise<WriteResult> {
    return this.scratchpad.write(this.id, name, content, options);
  }
  read(ref: EntryRef, slice?: ReadSlice, options?: { encoding?: 'base64' | 'hex' }): Promise<ReadResult> {
    return this.scratchpad.read(this.id, ref, slice, options);
  }
  stream(ref: EntryRef, slice?: ReadSlice): ReturnType<Scratchpad['stream']> {
    return this.scratchpad.stream(this.id, ref, slice);
  }
  grep(ref: EntryRef, options: GrepOptions): Promise<GrepResult> {
    return this.scratchpad.grep(this.id, ref, options);
  }
  edit(ref: EntryRef, options: EditOptions): Promise<EditResult> {
    return this.scratchpad.edit(this.id, ref, options);
  }
  update(ref: EntryRef, options: UpdateOptions): Promise<Entry> {
    return this.scratchpad.update(this.id, ref, options);
  }
  delete(ref: EntryRef, options?: { ifVersion?: number }): Promise<Entry> {
    return this.scratchpad.delete(this.id, ref, options);
  }
  get(ref: EntryRef): Promise<Entry> {
    return this.scratchpad.get(this.id, ref);
  }
  find(ref: EntryRef): Promise<Entry | undefined> {
    return this.scratchpad.find(this.id, ref);
  }
  list(options?: Parameters<Scratchpad['list']>[1]): Promise<Entry[]> {
    return this.scratchpad.list(this.id, options);
  }
  listForTurn(turn: string): Promise<Entry[]> {
    return this.scratchpad.listForTurn(this.id, turn);
  }
  search(query: string, options?: { limit?: number }): Promise<SearchHit[]> {
    return this.scratchpad.search(this.id, query, options);
  }
}

/** Creates the service over a driver. */
export function createScratchpad(config: ScratchpadConfig): Scratchpad {
  return new Scratchpad(config);
}

/** A new random entry id: 16 lowercase hex characters. */
export function newId(): string {
  return randomBytes(8).toString('hex');
}

function isExpired(record: EntryRecord, now: number): boolean {
  return record.expiresAt !== null && record.expiresAt <= now;
}

function pick<T>(given: T | undefined, current: T | undefined, fallback: T): T {
  return given !== undefined ? given : current !== undefined ? current : fallback;
}

function defaultMediaType(kind: 'text' | 'binary'): string {
  return kind === 'text' ? 'text/plain; charset=utf-8' : 'application/octet-stream';
}

function decideKind(
  requested: WriteOptions['kind'],
  fromString: boolean,
  staged: StagedContent,
): 'text' | 'binary' {
  if (requested === 'binary') return 'binary';
  if (requested === 'text' && !staged.utf8) {
    throw new ScratchpadError('NOT_TEXT', 'The content is not valid UTF-8 text.', {
      hint: 'Write it with kind "binary" (or "auto").',
    });
  }
  if (requested === 'text' || fromString) return 'text';
  return staged.utf8 ? 'text' : 'binary';
}

function assertText(record: EntryRecord, action: string): void {
  if (record.kind !== 'text') {
    throw new ScratchpadError(
      'NOT_TEXT',
      `Cannot ${action} "${record.name}": it is a binary entry (${formatBytes(record.bytes)}).`,
      {
        hint: 'Read binary entries by bytes (head, tail, range, offset) as base64 or hex.',
        details: { name: record.name, kind: record.kind },
      },
    );
  }
}

function checkPrecondition(
  current: EntryRecord | undefined,
  ifVersion: number | undefined,
  name: string,
  mustNotExist: boolean,
): void {
  if (mustNotExist && current) {
    throw new ScratchpadError(
      'ENTRY_EXISTS',
      `Entry "${name}" already exists (version ${current.version}).`,
      {
        hint: 'Choose another name, or write with mode "replace" to overwrite it.',
        details: { name, version: current.version },
      },
    );
  }
  if (ifVersion === undefined) return;
  const actual = current?.version ?? 0;
  if (actual !== ifVersion) throw conflict(name, current, ifVersion);
}

function conflict(
  name: string,
  current: EntryRecord | undefined,
  expected: number | undefined,
): ScratchpadError {
  const actual = current?.version ?? 0;
  return new ScratchpadError(
    'VERSION_CONFLICT',
    expected === undefined
      ? `"${name}" kept changing while writing; gave up after ${MAX_RETRIES + 1} attempts.`
      : `"${name}" is at version ${actual}, not ${expected}: someone else changed it.`,
    {
      hint:
        actual === 0
          ? 'It does not exist now; write it without ifVersion (or with ifVersion 0).'
          : `Read it again, then retry with ifVersion ${actual}.`,
      details: { name, expected, actual },
    },
  );
}

function validateWriteOptions(options: WriteOptions): void {
  if (options.mode !== undefined && !['replace', 'append', 'create'].includes(options.mode)) {
    throw new ScratchpadError('INVALID_ARGUMENT', `Unknown write mode ${JSON.stringify(options.mode)}.`, {
      hint: 'Use "replace", "append" or "create".',
    });
  }
  if (
    options.ifVersion !== undefined &&
    (!Number.isSafeInteger(options.ifVersion) || options.ifVersion < 0)
  ) {
    throw new ScratchpadError(
      'INVALID_ARGUMENT',
      `ifVersion must be an integer >= 0, got ${String(options.ifVersion)}.`,
    );
  }
  if (options.ttlMs !== undefined && options.ttlMs !== null) validateTtl(options.ttlMs);
  if (
    options.step !== undefined &&
    options.step !== null &&
    (!Number.isSafeInteger(options.step) || options.step < 0)
  ) {
    throw new ScratchpadError(
      'INVALID_ARGUMENT',
      `step must be an integer >= 0, got ${String(options.step)}.`,
    );
  }
  if (
    options.metadata !== undefined &&
    (typeof options.metadata !== 'object' || options.metadata === null || Array.isArray(options.metadata))
  ) {
    throw new ScratchpadError('INVALID_ARGUMENT', 'metadata must be a JSON object.');
  }
}

function validateTtl(ttlMs: number): void {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new ScratchpadError(
      'INVALID_ARGUMENT',
      `TTL must be a positive number of milliseconds, got ${String(ttlMs)}.`,
      {
        hint: 'Use null to keep the entry forever.',
      },
    );
  }
}

function occurrences(text: string, needle: string): number[] {
  const positions: number[] = [];
  let at = text.indexOf(needle);
  while (at !== -1) {
    positions.push(at);
    at = text.indexOf(needle, at + needle.length);
  }
  return positions;
}

/** 1-based line of each (ascending) position. */
function linesOf(text: string, positions: number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let at = text.indexOf('\n');
  for (const position of positions) {
    while (at !== -1 && at < position) {
      line++;
      at = text.indexOf('\n', at + 1);
    }
    lines.push(line);
  }
  return lines;
}

function clipContext(line: string): string {
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}

function describeGrep(shown: number, total: number, complete: boolean, lines: number): string {
  const of = `of ${formatCount(lines)} lines`;
  if (total === 0) return `no matching lines ${of}`;
  const found = `${formatCount(total)}${complete ? '' : '+'} matching line${total === 1 ? '' : 's'} ${of}`;
  return shown < total ? `${found} (showing the first ${formatCount(shown)})` : found;
}

export type { JsonObject };
