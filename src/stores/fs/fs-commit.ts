import { rename } from 'node:fs/promises';
import { removeFile, syncDirectory, writeDurable } from './atomic-file.js';

/**
 * The files one commit installs before its record. Everything is first made durable under a temporary name, in
 * parallel (the fsyncs overlap instead of queueing), then renamed into place in the order given, then the touched
 * directories are fsynced. So when {@link land} returns, every file the new record will name exists and is
 * durable, which is the invariant the record's rename relies on. If anything fails, {@link discard} removes the
 * temporary files; renamed ones are unreferenced until the record commits, and the sweep removes them.
 */
export class CommitBatch {
  readonly #work: Promise<unknown>[] = [];
  readonly #moves: Array<[from: string, to: string]> = [];
  readonly #directories = new Set<string>();
  readonly #temps: string[] = [];

  /** Writes `data` to `temp` (fsynced); {@link land} renames it to `path` and fsyncs `path`'s directory. */
  file(path: string, data: Uint8Array | string, temp: string, directory: string): void {
    this.#temps.push(temp);
    this.work(writeDurable(temp, data));
    this.move(temp, path, directory);
  }

  /** Work that must be durable before the renames (an fsync of staged or appended bytes). */
  work(promise: Promise<unknown>): void {
    promise.catch(() => {}); // observed in land()/discard(); this only keeps it from counting as unhandled
    this.#work.push(promise);
  }

  /** A durable file to rename into `directory` (fsynced after the renames). */
  move(from: string, to: string, directory: string): void {
    this.#moves.push([from, to]);
    this.#directories.add(directory);
  }

  /** A temporary file the caller renames itself; removed by {@link discard}. */
  temp(path: string): void {
    this.#temps.push(path);
  }

  async land(): Promise<void> {
    await this.#settle();
    for (const [from, to] of this.#moves) await rename(from, to);
    await Promise.all([...this.#directories].map((directory) => syncDirectory(directory)));
  }

  /** Waits for the work in flight, then removes the temporary files. Never throws. */
  async discard(): Promise<void> {
    await Promise.allSettled(this.#work);
    await Promise.all(this.#temps.map((path) => removeFile(path).catch(() => false)));
  }

  async #settle(): Promise<void> {
    const results = await Promise.allSettled(this.#work);
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  }
}
