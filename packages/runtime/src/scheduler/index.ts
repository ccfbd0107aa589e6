/** The scheduler (seed 002, ch. 13): recurring system tasks, state in SQLite, a single daemon per state file. */
export { type BuiltinTaskDependencies, builtinTasks, MAX_WISE_SUGGESTIONS } from './builtin-tasks.js';
export { type OpenScheduler, type OpenSchedulerOptions, openScheduler } from './open-scheduler.js';
export { isDue, nextDue, parseSchedule, type Schedule } from './schedule.js';
export {
  createScheduler,
  type Scheduler,
  type SchedulerConfig,
  type TaskContext,
  type TaskDefinition,
  type TaskRun,
  type TaskStatus,
} from './scheduler.js';
export { DAEMON_INTERVAL_MS, runSchedulerDaemon, type SchedulerDaemonOptions } from './scheduler-daemon.js';
export {
  type DaemonHolder,
  defaultSchedulerStatePath,
  type RunRow,
  SchedulerState,
  type TaskRow,
} from './scheduler-state.js';
