import { type Chunk, type ChunkAxis, chunkStart } from '../../core/chunk.js';
import type { EntryRecord } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import { byteOffsetAfterNewline, byteOffsetOfChar, countCodePoints, countNewlines } from '../../core/utf8.js';
import type { ChunkSource, StoreDriver } from '../../stores/driver.js';

/** A position already converted in a chunk: its local byte offset and the characters (or newlines) before it. */
interface Anchor {
  byte: number;
  count: number;
}

const MAX_ANCHORS = 8;

/**
 * Reads the chunks of one entry version for one operation, caching what it has read, and converts positions
 * between the byte, character and line axes using only the chunks that hold them.
 */
export class ChunkCursor {
  readonly record: EntryRecord;
  readonly #driver: StoreDriver;
  readonly #cache = new Map<number, Chunk>();
  // Conversions start from the nearest position already converted in the chunk instead of its start, so the
  // second end of a slice (and its description) costs O(slice), not O(chunk).
  readonly #charAnchors = new Map<number, Anchor[]>();
  readonly #lineAnchors = new Map<number, Anchor[]>();

  constructor(driver: StoreDriver, record: EntryRecord) {
    this.#driver = driver;
    this.record = record;
  }

  /**
   * Seq of the chunk holding `position` on `axis` (the driver's {@link StoreDriver.doLocateChunk}), answered from
   * the chunks this cursor holds when one of them is that chunk: the two ends of a slice, and the description of
   * what was read, are mostly in chunks already read (on PostgreSQL each question is a round trip).
   */
  locate(axis: ChunkAxis, position: number): Promise<number> {
    const cached = this.#cachedChunkAt(axis, position);
    if (cached !== undefined) return Promise.resolve(cached.seq);
    return this.#driver.doLocateChunk(this.record, axis, position);
  }

  /**
   * The chunk holding `position` on `axis`, from the cache where it holds it, else in one step where the driver
   * has one ({@link StoreDriver.doReadChunkAt}), else located and read.
   */
  async #chunkAt(axis: ChunkAxis, position: number): Promise<Chunk> {
    const cached = this.#cachedChunkAt(axis, position);
    if (cached !== undefined) return cached;
    const found = await this.#driver.doReadChunkAt?.(this.record, axis, position);
    if (found !== undefined) {
      this.#cache.set(found.seq, found);
      return found;
    }
    return this.chunk(await this.#driver.doLocateChunk(this.record, axis, position));
  }

  /** The cached chunk holding `position` on `axis`, if there is one. */
  #cachedChunkAt(axis: ChunkAxis, position: number): Chunk | undefined {
    const last = this.record.chunkCount - 1;
    for (const chunk of this.#cache.values()) {
      // The last chunk whose start is <= position: starts never decrease, and the next starts at start + count.
      const start = chunkStart(chunk, axis);
      if (start <= position && (chunk.seq === last || position < start + chunkCount(chunk, axis)))
        return chunk;
    }
    return undefined;
  }

  /** Chunks `[seqStart, seqEnd)`, from the cache where possible. */
  async chunks(seqStart: number, seqEnd: number): Promise<Chunk[]> {
    const end = Math.min(seqEnd, this.record.chunkCount);
    let missingFrom = -1;
    let missingTo = -1;
    for (let seq = seqStart; seq < end; seq++) {
      if (!this.#cache.has(seq)) {
        if (missingFrom === -1) missingFrom = seq;
        missingTo = seq + 1;
      }
    }
    if (missingFrom !== -1) {
      const fetched = await this.#driver.doReadChunks(this.record, missingFrom, missingTo);
      for (const chunk of fetched) this.#cache.set(chunk.seq, chunk);
    }
    const out: Chunk[] = [];
    for (let seq = seqStart; seq < end; seq++) {
      const chunk = this.#cache.get(seq);
      if (!chunk) throw await this.#missing(seq);
      out.push(chunk);
    }
    return out;
  }

  /**
   * Where the bytes of chunks `[seqStart, seqEnd)` are (`StoreDriver.doChunkSources`, or the chunks themselves when
   * the driver has no such method). Not cached: a scan asks once per range.
   */
  async sources(seqStart: number, seqEnd: number): Promise<ChunkSource[]> {
    const end = Math.min(seqEnd, this.record.chunkCount);
    if (end <= seqStart) return [];
    const driver = this.#driver;
    const found = driver.doChunkSources
      ? await driver.doChunkSources(this.record, seqStart, end)
      : await driver.doReadChunks(this.record, seqStart, end);
    for (let seq = seqStart; seq < end; seq++) {
      if (found[seq - seqStart]?.seq !== seq) throw await this.#missing(seq);
    }
    return found;
  }

  /**
   * A chunk the record points at is gone. Usually a concurrent writer replaced or deleted the entry after this
   * cursor read its record (a `CHANGED_WHILE_READING` the service retries); otherwise the store is damaged.
   */
  async #missing(seq: number): Promise<ScratchpadError> {
    const current = await this.#driver.doGetEntryById(this.record.id);
    if (!current || current.version !== this.record.version || current.contentId !== this.record.contentId) {
      return new ScratchpadError(
        'VERSION_CONFLICT',
        `"${this.record.name}" changed while it was being read.`,
        {
          hint: 'Read it again.',
          details: { name: this.record.name, version: this.record.version, changedWhileReading: true },
        },
      );
    }
    return new ScratchpadError('STORE_CORRUPT', `Chunk ${seq} of entry "${this.record.name}" is missing.`, {
      details: { entry: this.record.id, seq },
    });
  }

  /** Drops cached chunks `[seqStart, seqEnd)` (long scans keep memory flat). */
  forget(seqStart: number, seqEnd: number): void {
    for (let seq = seqStart; seq < seqEnd; seq++) {
      this.#cache.delete(seq);
      this.#charAnchors.delete(seq);
      this.#lineAnchors.delete(seq);
    }
  }

  async chunk(seq: number): Promise<Chunk> {
    return (await this.chunks(seq, seq + 1))[0] as Chunk;
  }

  /** Global byte offset of code point `char` (0 ≤ char ≤ total chars). */
  async byteOfChar(char: number): Promise<number> {
    if (char >= this.record.chars) return this.record.bytes;
    const chunk = await this.#chunkAt('char', char);
    const local = char - chunk.charStart;
    if (chunk.bytes === chunk.chars) return chunk.byteStart + local;
    const from = nearestAnchor(this.#charAnchors, chunk.seq, (anchor) => anchor.count <= local);
    const byte = from.byte + byteOffsetOfChar(chunk.data.subarray(from.byte), local - from.count);
    rememberAnchor(this.#charAnchors, chunk.seq, { byte, count: local });
    return chunk.byteStart + byte;
  }

  /** Global byte offset where 1-based `line` starts (`line` ≤ total lines). */
  async byteOfLineStart(line: number): Promise<number> {
    if (line <= 1) return 0;
    const ordinal = line - 1; // the newline that ends the previous line
    const chunk = await this.#chunkAt('line', ordinal - 1);
    const local = byteOffsetAfterNewline(chunk.data, ordinal - chunk.lineStart);
    if (local === -1) {
      throw new ScratchpadError(
        'STORE_CORRUPT',
        `Line index of entry "${this.record.name}" is inconsistent.`,
        {
          details: { entry: this.record.id, line },
        },
      );
    }
    return chunk.byteStart + local;
  }

  /** Global byte offset just after the `\n` that ends 1-based `line`, or the end of content for the last line. */
  async byteOfLineEnd(line: number): Promise<number> {
    if (line >= this.record.lines) return this.record.bytes;
    return this.byteOfLineStart(line + 1);
  }

  /** Position facts of a global byte offset: its code point offset and 1-based line. */
  async describeByte(byte: number): Promise<{ char: number; line: number }> {
    if (this.record.chunkCount === 0) return { char: 0, line: 1 };
    if (byte >= this.record.bytes) {
      return { char: this.record.chars, line: this.record.lines === 0 ? 1 : this.record.lines };
    }
    const chunk = await this.#chunkAt('byte', byte);
    const local = byte - chunk.byteStart;
    let chars = local;
    if (chunk.bytes !== chunk.chars) {
      const from = nearestAnchor(this.#charAnchors, chunk.seq, (anchor) => anchor.byte <= local);
      chars = from.count + countCodePoints(chunk.data, from.byte, local);
      rememberAnchor(this.#charAnchors, chunk.seq, { byte: local, count: chars });
    }
    const from = nearestAnchor(this.#lineAnchors, chunk.seq, (anchor) => anchor.byte <= local);
    const newlines = from.count + countNewlines(chunk.data, from.byte, local);
    rememberAnchor(this.#lineAnchors, chunk.seq, { byte: local, count: newlines });
    return { char: chunk.charStart + chars, line: chunk.lineStart + newlines + 1 };
  }

  /** The bytes `[start, end)` as one buffer. */
  async bytes(start: number, end: number): Promise<Buffer> {
    if (end <= start) return Buffer.alloc(0);
    const pieces: Buffer[] = [];
    for await (const piece of this.stream(start, end)) pieces.push(piece);
    return pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces);
  }

  /** The bytes `[start, end)` as pieces, reading `batch` chunks at a time (memory stays O(batch)). */
  async *stream(start: number, end: number, batch = 16): AsyncGenerator<Buffer> {
    if (end <= start) return;
    const first = await this.locate('byte', start);
    const last = await this.locate('byte', end - 1);
    for (let seq = first; seq <= last; seq += batch) {
      const chunks = await this.chunks(seq, Math.min(last + 1, seq + batch));
      for (const chunk of chunks) {
        const from = Math.max(0, start - chunk.byteStart);
        const to = Math.min(chunk.bytes, end - chunk.byteStart);
        const data = Buffer.from(chunk.data.buffer, chunk.data.byteOffset, chunk.data.byteLength);
        yield from === 0 && to === chunk.bytes ? data : data.subarray(from, to);
        // Streaming whole entries must not keep every chunk alive.
        if (last - first > batch) this.#cache.delete(chunk.seq);
      }
    }
  }
}

/** The anchor of chunk `seq` closest below a target (the chunk's start when none qualifies). */
function nearestAnchor(
  anchors: Map<number, Anchor[]>,
  seq: number,
  qualifies: (anchor: Anchor) => boolean,
): Anchor {
  let best: Anchor = { byte: 0, count: 0 };
  for (const anchor of anchors.get(seq) ?? []) {
    if (qualifies(anchor) && anchor.byte > best.byte) best = anchor;
  }
  return best;
}

function rememberAnchor(anchors: Map<number, Anchor[]>, seq: number, anchor: Anchor): void {
  const list = anchors.get(seq);
  if (!list) anchors.set(seq, [anchor]);
  else if (list.length < MAX_ANCHORS) list.push(anchor);
  else list[list.length - 1] = anchor;
}

/** How far a chunk reaches on `axis`: its bytes, characters or newlines. */
function chunkCount(chunk: Chunk, axis: ChunkAxis): number {
  return axis === 'byte' ? chunk.bytes : axis === 'char' ? chunk.chars : chunk.newlines;
}
