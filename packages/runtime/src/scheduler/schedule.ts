import { ScratchpadError } from 'llm-scratchpad';

/** When a task runs (seed 002, ch. 13): every day at HH:MM UTC, every N minutes, or only on request. */
export type Schedule =
  | { kind: 'daily'; text: string; hour: number; minute: number }
  | { kind: 'every'; text: string; minutes: number }
  | { kind: 'manual'; text: 'manual' };

const DAY_MS = 86_400_000;

/** Parses `daily@HH:MM` (UTC), `every_N_minutes` (N ≥ 1) or `manual`; anything else is `INVALID_ARGUMENT`. */
export function parseSchedule(text: string): Schedule {
  const daily = /^daily@([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  if (daily) return { kind: 'daily', text, hour: Number(daily[1]), minute: Number(daily[2]) };
  const every = /^every_([1-9]\d{0,5})_minutes$/.exec(text);
  if (every) return { kind: 'every', text, minutes: Number(every[1]) };
  if (text === 'manual') return { kind: 'manual', text };
  throw new ScratchpadError('INVALID_ARGUMENT', `Unknown schedule ${JSON.stringify(text)}.`, {
    hint: 'Use daily@HH:MM (UTC, e.g. daily@04:00), every_N_minutes (e.g. every_60_minutes) or manual.',
  });
}

/** The most recent `HH:MM` (UTC) at or before `now`. */
function latestSlot(schedule: { hour: number; minute: number }, now: number): number {
  const day = new Date(now);
  const today = Date.UTC(
    day.getUTCFullYear(),
    day.getUTCMonth(),
    day.getUTCDate(),
    schedule.hour,
    schedule.minute,
  );
  return today <= now ? today : today - DAY_MS;
}

/**
 * Whether a task is due at `now` (idempotent: a task that ran in the current slot is not due again).
 * - `daily@HH:MM`: at the first tick at or after HH:MM of a day on which it has not run since HH:MM; a task
 *   never run is due at the first tick at or after HH:MM.
 * - `every_N_minutes`: when N minutes have passed since its last run, or at once if never run.
 * - `manual`: never (only `run-now`).
 */
export function isDue(schedule: Schedule, lastRunAt: number | null, now: number): boolean {
  switch (schedule.kind) {
    case 'daily': {
      const slot = latestSlot(schedule, now);
      return lastRunAt === null ? isToday(slot, now) : lastRunAt < slot;
    }
    case 'every':
      return lastRunAt === null || now - lastRunAt >= schedule.minutes * 60_000;
    case 'manual':
      return false;
  }
}

/** When the task is next due: `now` when it is due, `null` for `manual`. */
export function nextDue(schedule: Schedule, lastRunAt: number | null, now: number): number | null {
  if (isDue(schedule, lastRunAt, now)) return now;
  switch (schedule.kind) {
    case 'daily':
      return latestSlot(schedule, now) + DAY_MS;
    case 'every':
      return (lastRunAt ?? now) + schedule.minutes * 60_000;
    case 'manual':
      return null;
  }
}

function isToday(slot: number, now: number): boolean {
  return new Date(slot).toISOString().slice(0, 10) === new Date(now).toISOString().slice(0, 10);
}
