import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { StepSummary, TurnSummary } from './api-types.js';

/** A turn of the log, summarized ({@link TurnSummary}), with where its line is. */
export interface IndexedTurn extends TurnSummary {
  file: string;
  offset: number;
  length: number;
}

/**
 * Turn log lines longer than this are not parsed (a record's strings are clipped: real lines are far shorter); one
 * line is parsed in one piece, ~15 ms at this size.
 */
export const MAX_TURN_LINE_BYTES = 1024 * 1024;
const READ_CHUNK_BYTES = 1024 * 1024;
/** Parsing yields to the event loop at least this often (a read chunk holds thousands of small lines). */
const YIELD_EVERY_MS = 5;
const MAX_QUERY_CHARS = 300;
const LOG_FILE = /^\d{4}-\d{2}-\d{2}\.jsonl$/;

interface FileState {
  /** Bytes indexed: everything before the first incomplete line. */
  offset: number;
  size: number;
  mtimeMs: number;
}

/**
 * An incremental index of the turn log directory (`YYYY-MM-DD.jsonl`, one JSON record per line, append-only):
 * each refresh reads only what was appended since the last one, in bounded chunks, yielding to the event loop
 * between them. A line still being written (no `\n` yet) waits for the next refresh; a line over
 * {@link MAX_TURN_LINE_BYTES} or not a turn record is skipped and counted.
 */
export class TurnIndex {
  readonly directory: string;
  #files = new Map<string, FileState>();
  #turns = new Map<string, IndexedTurn>();
  #byEntry = new Map<string, { turnId: string; step: number }>();
  #skipped = 0;
  #refreshing: Promise<void> | undefined;
  #lastRefresh = 0;

  constructor(directory: string) {
    this.directory = directory;
  }

  /** Lines that were not turn records (too long, not JSON, missing fields). */
  get skipped(): number {
    return this.#skipped;
  }

  /** Bytes indexed over all files: grows with every appended turn (part of the live fingerprint). */
  get indexedBytes(): number {
    let total = 0;
    for (const state of this.#files.values()) total += state.offset;
    return total;
  }

  /** Reads what was appended since the last refresh; at most one refresh runs at a time, and at most every `minIntervalMs`. */
  refresh(minIntervalMs = 500): Promise<void> {
    if (this.#refreshing) return this.#refreshing;
    if (Date.now() - this.#lastRefresh < minIntervalMs) return Promise.resolve();
    this.#refreshing = this.#scan().finally(() => {
      this.#lastRefresh = Date.now();
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  /** Every indexed turn, newest first. */
  turns(): IndexedTurn[] {
    return [...this.#turns.values()].sort((a, b) => b.tsStart - a.tsStart);
  }

  turn(turnId: string): IndexedTurn | undefined {
    return this.#turns.get(turnId);
  }

  /** The turn and step whose result was offloaded to the entry with this id (the latest, when reused). */
  stepOfEntry(entryId: string): { turn: IndexedTurn; step: number } | undefined {
    const found = this.#byEntry.get(entryId);
    const turn = found ? this.#turns.get(found.turnId) : undefined;
    return found && turn ? { turn, step: found.step } : undefined;
  }

  /** The full record of a turn, read from its line. */
  async record(turn: IndexedTurn): Promise<Record<string, unknown>> {
    const handle = await open(join(this.directory, turn.file), 'r');
    try {
      const buffer = Buffer.alloc(turn.length);
      await handle.read(buffer, 0, turn.length, turn.offset);
      return JSON.parse(buffer.toString('utf8')) as Record<string, unknown>;
    } finally {
      await handle.close();
    }
  }

  async #scan(): Promise<void> {
    let names: string[];
    try {
      names = (await readdir(this.directory)).filter((name) => LOG_FILE.test(name)).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const name of names) {
      const info = await stat(join(this.directory, name));
      let state = this.#files.get(name);
      if (
        state &&
        (info.size < state.offset || (info.size === state.size && info.mtimeMs !== state.mtimeMs))
      ) {
        // Truncated or rewritten: index it again from the start.
        this.#forgetFile(name);
        state = undefined;
      }
      state ??= { offset: 0, size: 0, mtimeMs: 0 };
      this.#files.set(name, state);
      if (info.size > state.offset) await this.#indexFrom(name, state, info.size);
      state.size = info.size;
      state.mtimeMs = info.mtimeMs;
    }
  }

  async #indexFrom(name: string, state: FileState, size: number): Promise<void> {
    const handle = await open(join(this.directory, name), 'r');
    try {
      let position = state.offset;
      let lineStart = state.offset;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      let oversized = false;
      const buffer = Buffer.alloc(READ_CHUNK_BYTES);
      let lastYield = performance.now();
      while (position < size) {
        const { bytesRead } = await handle.read(
          buffer,
          0,
          Math.min(READ_CHUNK_BYTES, size - position),
          position,
        );
        if (bytesRead === 0) break;
        let from = 0;
        for (let newline = buffer.indexOf(10, 0); newline !== -1 && newline < bytesRead; ) {
          const length = pendingBytes + newline - from;
          if (!oversized && length <= MAX_TURN_LINE_BYTES) {
            const line = Buffer.concat([...pending, buffer.subarray(from, newline)]);
            this.#add(name, line, lineStart);
            if (performance.now() - lastYield > YIELD_EVERY_MS) {
              await new Promise((resolve) => setImmediate(resolve));
              lastYield = performance.now();
            }
          } else {
            this.#skipped += 1;
          }
          pending = [];
          pendingBytes = 0;
          oversized = false;
          lineStart = position + newline + 1;
          from = newline + 1;
          newline = buffer.indexOf(10, from);
        }
        const rest = bytesRead - from;
        if (rest > 0) {
          if (oversized || pendingBytes + rest > MAX_TURN_LINE_BYTES) {
            oversized = true;
            pending = [];
          } else {
            pending.push(Buffer.from(buffer.subarray(from, bytesRead)));
          }
          pendingBytes += rest;
        }
        position += bytesRead;
        await new Promise((resolve) => setImmediate(resolve));
        lastYield = performance.now();
      }
      state.offset = lineStart;
    } finally {
      await handle.close();
    }
  }

  #add(file: string, line: Buffer, offset: number): void {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line.toString('utf8')) as Record<string, unknown>;
    } catch {
      this.#skipped += 1;
      return;
    }
    const summary = summarizeTurn(record, file, offset, line.length);
    if (!summary) {
      this.#skipped += 1;
      return;
    }
    this.#turns.set(summary.turnId, summary);
    for (const step of summary.steps) {
      if (step.entry) this.#byEntry.set(step.entry, { turnId: summary.turnId, step: step.step });
    }
  }

  #forgetFile(file: string): void {
    this.#files.delete(file);
    for (const [id, turn] of this.#turns) if (turn.file === file) this.#turns.delete(id);
    for (const [entry, where] of this.#byEntry)
      if (!this.#turns.has(where.turnId)) this.#byEntry.delete(entry);
  }
}

/** The summary of one turn record, or undefined when the line is not one. */
function summarizeTurn(
  record: Record<string, unknown>,
  file: string,
  offset: number,
  length: number,
): IndexedTurn | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  const { turn_id: turnId, session, ts_start: tsStart, ts_end: tsEnd } = record;
  if (typeof turnId !== 'string' || typeof session !== 'string' || typeof tsStart !== 'number')
    return undefined;
  const model = record.model as { provider?: unknown; modelId?: unknown } | undefined;
  const query = typeof record.user_query === 'string' ? record.user_query : '';
  return {
    turnId: turnId.slice(0, 200),
    session: session.slice(0, 200),
    tsStart,
    tsEnd: typeof tsEnd === 'number' ? tsEnd : tsStart,
    query: query.length > MAX_QUERY_CHARS ? `${query.slice(0, MAX_QUERY_CHARS)}…` : query,
    mode: String(record.mode ?? '').slice(0, 20),
    finalKind: String(record.final_kind ?? '').slice(0, 40),
    model: model ? `${String(model.provider ?? '')}/${String(model.modelId ?? '')}`.slice(0, 200) : '',
    steps: Array.isArray(record.steps) ? record.steps.slice(0, 1000).flatMap(summarizeStep) : [],
    file,
    offset,
    length,
  };
}

function summarizeStep(value: unknown): StepSummary[] {
  if (typeof value !== 'object' || value === null) return [];
  const step = value as Record<string, unknown>;
  if (typeof step.step !== 'number') return [];
  const result = (typeof step.result === 'object' && step.result !== null ? step.result : {}) as Record<
    string,
    unknown
  >;
  const offloaded = result.offloaded === true;
  const number = (key: string): number | null =>
    typeof result[key] === 'number' ? (result[key] as number) : null;
  const summary: StepSummary = {
    step: step.step,
    tool: String(step.tool ?? '').slice(0, 200),
    outcome: String(step.outcome ?? '').slice(0, 40),
    shown: offloaded ? number('shownChars') : number('chars'),
    stored: offloaded ? (number('bytes') ?? 0) : 0,
  };
  if (offloaded && typeof result.entry === 'string') summary.entry = result.entry.slice(0, 100);
  if (offloaded && typeof result.name === 'string') summary.entryName = result.name.slice(0, 300);
  return [summary];
}
