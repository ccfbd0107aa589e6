import { ScratchpadError } from 'llm-scratchpad';
import { isDue, nextDue, parseSchedule, type Schedule } from './schedule.js';
import type { SchedulerState, TaskRow } from './scheduler-state.js';

/** What a task gets when it runs. */
export interface TaskContext {
  /** The tick's time (milliseconds since the epoch): `--now` when given. */
  now: number;
}

/** A recurring system task: a builtin of the runtime, not an executor (no capability, no signature, no sandbox). */
export interface TaskDefinition {
  name: string;
  /** `daily@HH:MM` (UTC), `every_N_minutes` or `manual`. */
  schedule: string;
  description: string;
  /** Does the work; returns a one-line report (or a few lines). Throwing marks the run `error`. */
  run(context: TaskContext): Promise<string>;
}

/** One run of a task. */
export interface TaskRun {
  task: string;
  status: 'ok' | 'error';
  output: string;
  started_at: string;
  finished_at: string;
}

/** A task as `scheduler status` shows it. */
export interface TaskStatus extends TaskRow {
  /** ISO 8601; `null` for `manual` tasks. Equal to the status time when the task is due. */
  next_due: string | null;
}

/** The cron-style loop of seed 002, ch. 13, over a {@link SchedulerState}. */
export interface Scheduler {
  readonly tasks: readonly TaskDefinition[];
  /**
   * Runs every task due at `now`, one after the other. A task's failure is caught and recorded (`error`, with its
   * stack) and the tick goes on. Idempotent: a second tick in the same slot runs nothing.
   */
  tick(now: number): Promise<TaskRun[]>;
  /** Runs `name` now, whatever its schedule. An unknown name is `INVALID_ARGUMENT` listing the tasks. */
  runNow(name: string, now: number): Promise<TaskRun>;
  /** Every task with its schedule, last run and status, and when it is next due. */
  status(now: number): Promise<TaskStatus[]>;
}

/** Options of {@link createScheduler}. */
export interface SchedulerConfig {
  state: SchedulerState;
  tasks: readonly TaskDefinition[];
  /** The clock for run start and finish times (default `Date.now`); due checks use the tick's `now`. */
  clock?: () => number;
}

/** Creates the scheduler: registers the tasks in the state file (keeping their past runs). */
export async function createScheduler(config: SchedulerConfig): Promise<Scheduler> {
  const schedules = new Map<string, Schedule>(
    config.tasks.map((task) => [task.name, parseSchedule(task.schedule)]),
  );
  await config.state.register(config.tasks);
  const clock = config.clock ?? Date.now;

  async function execute(task: TaskDefinition, now: number): Promise<TaskRun> {
    const started = new Date(now).toISOString();
    const began = clock();
    let status: TaskRun['status'] = 'ok';
    let output: string;
    try {
      output = await task.run({ now });
    } catch (error) {
      status = 'error';
      output = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
    }
    // Times follow the tick's `now` (`--now` replays a day), plus how long the task really took.
    const finished = new Date(now + Math.max(0, clock() - began)).toISOString();
    const run: TaskRun = { task: task.name, status, output, started_at: started, finished_at: finished };
    await config.state.finish(run);
    return run;
  }

  return {
    tasks: config.tasks,
    async tick(now) {
      const runs: TaskRun[] = [];
      for (const task of config.tasks) {
        const schedule = schedules.get(task.name) as Schedule;
        if (!(await config.state.claim(task.name, now, (lastRunAt) => isDue(schedule, lastRunAt, now))))
          continue;
        runs.push(await execute(task, now));
      }
      return runs;
    },
    async runNow(name, now) {
      const task = config.tasks.find((item) => item.name === name);
      if (!task) {
        throw new ScratchpadError(
          'INVALID_ARGUMENT',
          `There is no scheduler task named ${JSON.stringify(name)}.`,
          {
            hint: `The tasks are: ${config.tasks.map((item) => item.name).join(', ')}.`,
          },
        );
      }
      await config.state.claim(name, now, () => true);
      return execute(task, now);
    },
    async status(now) {
      return (await config.state.tasks()).flatMap((row) => {
        const schedule = schedules.get(row.name);
        if (!schedule) return [];
        const next = nextDue(schedule, row.last_run_at === null ? null : Date.parse(row.last_run_at), now);
        return [{ ...row, next_due: next === null ? null : new Date(next).toISOString() }];
      });
    },
  };
}
