import { readdir } from 'node:fs/promises';
import type { EntryRecord } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import { readTextIfExists } from './atomic-file.js';
import { guard, isMissing, storeError } from './fs-errors.js';
import { type FsLayout, isStorableName } from './fs-layout.js';
import { parseRecord } from './fs-records.js';

/** What `ROOT/SESSION/.scratchpad/session.json` holds. */
export interface SessionFile {
  id: string;
  createdAt: number;
}

const PARALLEL_READS = 16;

/**
 * Reads records, sessions and ids from the directory tree without locks: every file it reads is replaced by an
 * atomic rename, so it sees either the old or the new version, never a torn one.
 */
export class RecordReader {
  readonly #layout: FsLayout;

  constructor(layout: FsLayout) {
    this.#layout = layout;
  }

  /**
   * The record of `session`/`name`, or `undefined`. On a case-insensitive file system another entry's record can
   * answer for a name that differs only by case: for a read that is "not found"; for a write it is refused with
   * `ENTRY_EXISTS`, because both would share one file.
   */
  async record(
    session: string,
    name: string,
    purpose: 'read' | 'write' = 'read',
  ): Promise<EntryRecord | undefined> {
    const path = this.#layout.recordFile(session, name);
    const text = await guard(path, 'read', () => readTextIfExists(path));
    if (text === undefined) return undefined;
    const record = parseRecord(text, path);
    if (record.session === session && record.name === name) return record;
    if (
      record.session.toLowerCase() === session.toLowerCase() &&
      record.name.toLowerCase() === name.toLowerCase()
    ) {
      if (purpose === 'read') return undefined;
      throw new ScratchpadError(
        'ENTRY_EXISTS',
        `"${session}/${name}" differs only by case from the entry "${record.session}/${record.name}", and this file system ignores case.`,
        {
          hint: 'Pick a name (or session id) that differs by more than case, or use the sqlite: store.',
          details: { existing: record.name },
        },
      );
    }
    throw new ScratchpadError(
      'STORE_CORRUPT',
      `The entry record ${path} belongs to "${record.session}/${record.name}".`,
      {
        hint: 'A record file was moved or copied by hand; move it back or delete it.',
        details: { path },
      },
    );
  }

  /** Every record of a session (optionally only names starting with `prefix`); `[]` when there is no session. */
  async sessionRecords(session: string, prefix?: string): Promise<EntryRecord[]> {
    return this.records(session, await this.sessionNames(session, prefix));
  }

  /** The names of a session's records (optionally only those starting with `prefix`), without reading them. */
  async sessionNames(session: string, prefix?: string): Promise<string[]> {
    const directory = this.#layout.entriesDirectory(session);
    let files: string[];
    try {
      files = await readdir(directory);
    } catch (error) {
      if (isMissing(error)) return [];
      throw storeError(error, directory, 'list');
    }
    return files
      .filter((file) => file.endsWith('.json'))
      .map((file) => file.slice(0, -'.json'.length))
      .filter((name) => isStorableName(name) && (prefix === undefined || name.startsWith(prefix)));
  }

  /** The records of `names` in `session` that exist, in the order given. */
  async records(session: string, names: readonly string[]): Promise<EntryRecord[]> {
    const records = await mapLimit(names, PARALLEL_READS, (name) => this.record(session, name));
    return records.filter((record): record is EntryRecord => record !== undefined);
  }

  /** Ids of the sessions in the store: directories with a valid name and a `session.json`. */
  async sessionIds(): Promise<string[]> {
    const root = this.#layout.root;
    const items = await guard(root, 'list', () => readdir(root, { withFileTypes: true }));
    const candidates = items
      .filter((item) => item.isDirectory() && isStorableName(item.name))
      .map((item) => item.name);
    const present = await mapLimit(candidates, PARALLEL_READS, async (id) =>
      (await this.session(id)) ? id : undefined,
    );
    return present.filter((id): id is string => id !== undefined).sort();
  }

  /** The session's `session.json`, or `undefined` when the session does not exist. */
  async session(session: string): Promise<SessionFile | undefined> {
    const path = this.#layout.sessionFile(session);
    const text = await guard(path, 'read', () => readTextIfExists(path));
    if (text === undefined) return undefined;
    try {
      const parsed = JSON.parse(text) as Partial<SessionFile>;
      if (typeof parsed.createdAt === 'number' && Number.isFinite(parsed.createdAt))
        return { id: session, createdAt: parsed.createdAt };
    } catch {
      // reported below
    }
    throw new ScratchpadError('STORE_CORRUPT', `The session file ${path} is damaged.`, {
      hint: `Write {"id":"${session}","createdAt":${Date.now()}} to it, or restore it from a backup.`,
      details: { path },
    });
  }

  /** `SESSION/NAME` stored for an entry id, or `undefined`. */
  async idTarget(id: string): Promise<{ session: string; name: string } | undefined> {
    const path = this.#layout.idFile(id);
    const text = await guard(path, 'read', () => readTextIfExists(path));
    if (text === undefined) return undefined;
    const [session, name] = text.trim().split('/');
    if (isStorableName(session) && isStorableName(name)) return { session, name };
    throw new ScratchpadError('STORE_CORRUPT', `The id file ${path} does not hold SESSION/NAME.`, {
      hint: 'Delete the file; the entry stays readable by name, and its next write recreates the id file.',
      details: { path },
    });
  }
}

/** Maps `items` through `body` with at most `limit` calls in flight, keeping the order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  body: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await body(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
