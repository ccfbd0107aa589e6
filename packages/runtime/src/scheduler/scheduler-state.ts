import { hostname } from 'node:os';
import { join } from 'node:path';
import type { SqliteDatabase } from 'llm-scratchpad/extension';
import { StateDatabase } from 'llm-scratchpad/extension';
import { scratchpadDataDir } from 'llm-scratchpad/extension';
import type { EnvironmentVariables } from '../executors/xdg-dirs.js';
import { runtimeError } from '../runtime-errors.js';

/** One row of `tasks`. Times are ISO 8601 (UTC). */
export interface TaskRow {
  name: string;
  schedule: string;
  last_run_at: string | null;
  /** `running` while a run is under way, then `ok` or `error`. */
  last_status: 'running' | 'ok' | 'error' | null;
  last_output: string | null;
}

/** One row of the append-only `runs`. */
export interface RunRow {
  task: string;
  started_at: string;
  finished_at: string;
  status: 'ok' | 'error';
  output: string;
}

/** The process that holds a state file's daemon lock. */
export interface DaemonHolder {
  pid: number;
  host: string;
  started_at: string;
}

/** `$XDG_DATA_HOME/scratchpad/scheduler.sqlite` (the seed's `workspace/.scheduler/state.sqlite`, with the other state). */
export function defaultSchedulerStatePath(env: EnvironmentVariables = process.env): string {
  return join(scratchpadDataDir(env), 'scheduler.sqlite');
}

/** Longest `output` kept per run (a stack trace, a report). */
const MAX_OUTPUT_CHARS = 64 * 1024;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS tasks (
  name TEXT PRIMARY KEY,
  schedule TEXT NOT NULL,
  last_run_at TEXT,
  last_status TEXT,
  last_output TEXT
);
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  task TEXT NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT NOT NULL,
  status TEXT NOT NULL,
  output TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS runs_no_update BEFORE UPDATE ON runs
  BEGIN SELECT RAISE(ABORT, 'runs is append-only'); END;
CREATE TRIGGER IF NOT EXISTS runs_no_delete BEFORE DELETE ON runs
  BEGIN SELECT RAISE(ABORT, 'runs is append-only'); END;
CREATE TABLE IF NOT EXISTS daemon (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  started_at TEXT NOT NULL
);
`;

/**
 * The scheduler's state (seed 002, ch. 13): table `tasks` (`name`, `schedule`, `last_run_at`, `last_status`,
 * `last_output`), append-only table `runs` (`task`, `started_at`, `finished_at`, `status`, `output`; triggers
 * refuse updates and deletes), and the daemon lock. Claims are transactions, so two ticks (two processes
 * included) never run a task twice in one slot.
 */
export class SchedulerState {
  readonly #state: StateDatabase;

  private constructor(state: StateDatabase) {
    this.#state = state;
  }

  /** Opens (creating it when missing) the state file at `path` (default {@link defaultSchedulerStatePath}). */
  static open(path: string = defaultSchedulerStatePath()): SchedulerState {
    return new SchedulerState(StateDatabase.open(path, SCHEMA));
  }

  /** The file. */
  get path(): string {
    return this.#state.path;
  }

  /** Adds the tasks that are missing and updates changed schedules; last runs are kept. */
  async register(tasks: ReadonlyArray<{ name: string; schedule: string }>): Promise<void> {
    await this.#state.transaction((database) => {
      const upsert = database.prepare(
        'INSERT INTO tasks (name, schedule) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET schedule = excluded.schedule',
      );
      for (const task of tasks) upsert.run(task.name, task.schedule);
    });
  }

  tasks(): Promise<TaskRow[]> {
    return this.#state.run(
      (database) => database.prepare('SELECT * FROM tasks ORDER BY name').all() as TaskRow[],
    );
  }

  /**
   * Claims `name` for a run at `now` when `due(last run)` says so, in one transaction: `last_run_at` becomes
   * `now` and `last_status` `running`. Returns false when another tick got there first (or it is not due).
   */
  claim(name: string, now: number, due: (lastRunAt: number | null) => boolean): Promise<boolean> {
    return this.#state.transaction((database) => {
      const row = database.prepare('SELECT last_run_at FROM tasks WHERE name = ?').get(name) as
        | { last_run_at: string | null }
        | undefined;
      if (!row) return false;
      if (!due(row.last_run_at === null ? null : Date.parse(row.last_run_at))) return false;
      database
        .prepare("UPDATE tasks SET last_run_at = ?, last_status = 'running' WHERE name = ?")
        .run(new Date(now).toISOString(), name);
      return true;
    });
  }

  /** Records a finished run: one new row in `runs`, and the task's last status and output. */
  async finish(run: RunRow): Promise<void> {
    const output =
      run.output.length > MAX_OUTPUT_CHARS ? `${run.output.slice(0, MAX_OUTPUT_CHARS)}…` : run.output;
    await this.#state.transaction((database) => {
      database
        .prepare('INSERT INTO runs (task, started_at, finished_at, status, output) VALUES (?, ?, ?, ?, ?)')
        .run(run.task, run.started_at, run.finished_at, run.status, output);
      database
        .prepare('UPDATE tasks SET last_status = ?, last_output = ? WHERE name = ?')
        .run(run.status, output, run.task);
    });
  }

  /** The runs so far, oldest first (at most `limit`, the latest ones). */
  async runs(limit = 1000): Promise<RunRow[]> {
    const rows = await this.#state.run(
      (database) =>
        database
          .prepare('SELECT task, started_at, finished_at, status, output FROM runs ORDER BY id DESC LIMIT ?')
          .all(limit) as RunRow[],
    );
    return rows.reverse();
  }

  /** The process holding the daemon lock, if it is still alive. */
  async daemon(): Promise<DaemonHolder | undefined> {
    const holder = await this.#state.run(readHolder);
    return holder && isAlive(holder) ? holder : undefined;
  }

  /**
   * Takes the daemon lock for `pid`: one daemon per state file. A lock left by a process that no longer runs is
   * taken over; a live holder is a `SCHEDULER_LOCKED` that names it.
   */
  async lockDaemon(pid: number, now: number): Promise<void> {
    await this.#state.transaction((database) => {
      const holder = readHolder(database);
      if (holder && holder.pid !== pid && isAlive(holder)) {
        throw runtimeError(
          'SCHEDULER_LOCKED',
          `A scheduler daemon already runs on ${this.path}: process ${holder.pid} on ${holder.host}, since ${holder.started_at}.`,
          {
            hint: `Only one daemon may run per state file: leave it running, or stop it (kill ${holder.pid}) and start again.`,
            details: { ...holder, path: this.path },
          },
        );
      }
      database
        .prepare('INSERT OR REPLACE INTO daemon (id, pid, host, started_at) VALUES (1, ?, ?, ?)')
        .run(pid, hostname(), new Date(now).toISOString());
    });
  }

  /** Releases the daemon lock if `pid` holds it. */
  async unlockDaemon(pid: number): Promise<void> {
    await this.#state.run((database) =>
      database.prepare('DELETE FROM daemon WHERE id = 1 AND pid = ?').run(pid),
    );
  }

  close(): void {
    this.#state.close();
  }
}

function readHolder(database: SqliteDatabase): DaemonHolder | undefined {
  return database.prepare('SELECT pid, host, started_at FROM daemon WHERE id = 1').get() as
    | DaemonHolder
    | undefined;
}

/** Whether the lock holder still runs (a holder on another host is assumed to). */
function isAlive(holder: DaemonHolder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
