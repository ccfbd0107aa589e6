import { type FileHandle, mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Chunk } from '../../core/chunk.js';
import { removeFile, writeAll } from './atomic-file.js';
import { type ChunkIndex, ChunkIndexBuilder } from './chunk-index.js';
import { guard, isMissing } from './fs-errors.js';

/** Staged content after {@link StagingArea.seal}: the durable file and its chunk index. */
export interface SealedContent {
  path: string;
  index: ChunkIndex;
  bytes: number;
}

/**
 * One staging area: a file under `ROOT/.scratchpad/staging/` that receives the chunks of new content back to back
 * (positional writes), plus their sizes in memory. Nothing in it is visible until a commit renames the file into
 * a session; a crashed writer's file is removed by the sweep once it is old enough.
 */
export class StagingArea {
  readonly stagingId: string;
  readonly path: string;
  readonly #handle: FileHandle;
  readonly #builder = new ChunkIndexBuilder();
  #state: 'open' | 'sealed' | 'aborted' = 'open';
  #sealed: SealedContent | undefined;
  #pending: Promise<void> = Promise.resolve();

  private constructor(stagingId: string, path: string, handle: FileHandle) {
    this.stagingId = stagingId;
    this.path = path;
    this.#handle = handle;
  }

  /** Creates the staging file (`wx`: an id is never reused). */
  static async create(stagingId: string, path: string): Promise<StagingArea> {
    return guard(path, 'create the staging file', async () => {
      try {
        return new StagingArea(stagingId, path, await open(path, 'wx'));
      } catch (error) {
        if (!isMissing(error)) throw error;
        await mkdir(dirname(path), { recursive: true });
        return new StagingArea(stagingId, path, await open(path, 'wx'));
      }
    });
  }

  get bytes(): number {
    return this.#builder.bytes;
  }

  /** Appends the next chunk (chunks must arrive in order, offsets relative to the staged content). */
  write(chunk: Chunk): Promise<void> {
    const run = this.#pending.then(async () => {
      if (this.#state !== 'open') throw new Error(`Staging area ${this.stagingId} is ${this.#state}.`);
      const position = this.#builder.bytes;
      this.#builder.add(chunk);
      await guard(this.path, 'write the staging file', () => writeAll(this.#handle, chunk.data, position));
    });
    this.#pending = run.catch(() => {});
    return run;
  }

  /** The chunk index of everything staged so far (after the writes in flight). */
  async index(): Promise<ChunkIndex> {
    await this.#pending;
    return this.#builder.build();
  }

  /**
   * Closes the file, fsyncing it first when `durable` (when it is installed as is; not when its bytes are
   * copied elsewhere). The result is what a commit installs. Idempotent.
   */
  async seal(durable = true): Promise<SealedContent> {
    await this.#pending;
    if (this.#sealed) return this.#sealed;
    if (this.#state !== 'open') throw new Error(`Staging area ${this.stagingId} is ${this.#state}.`);
    this.#state = 'sealed';
    await guard(this.path, 'flush the staging file', async () => {
      try {
        if (durable) await this.#handle.sync();
      } finally {
        await this.#handle.close();
      }
    });
    this.#sealed = { path: this.path, index: this.#builder.build(), bytes: this.#builder.bytes };
    return this.#sealed;
  }

  /** Closes and removes the staging file (after a commit it is already gone). Idempotent. */
  async abort(): Promise<void> {
    await this.#pending;
    const wasOpen = this.#state === 'open';
    if (this.#state === 'aborted') return;
    this.#state = 'aborted';
    if (wasOpen) await this.#handle.close().catch(() => {});
    await removeFile(this.path);
  }
}
