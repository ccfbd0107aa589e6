import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDue, nextDue, parseSchedule, type Schedule } from './schedule.js';

const at = (iso: string) => Date.parse(iso);

describe('parseSchedule', () => {
  it('reads the three supports and refuses anything else', () => {
    expect(parseSchedule('daily@04:30')).toEqual({ kind: 'daily', text: 'daily@04:30', hour: 4, minute: 30 });
    expect(parseSchedule('every_60_minutes')).toEqual({
      kind: 'every',
      text: 'every_60_minutes',
      minutes: 60,
    });
    expect(parseSchedule('manual')).toEqual({ kind: 'manual', text: 'manual' });
    for (const bad of ['daily@24:00', 'daily@4:00', 'every_0_minutes', 'every_minutes', 'hourly', ''])
      expect(() => parseSchedule(bad), bad).toThrow(/Unknown schedule/);
  });
});

describe('isDue / nextDue', () => {
  const daily = parseSchedule('daily@04:00');
  it('daily: never run, due at the first tick at or after HH:MM', () => {
    expect(isDue(daily, null, at('2026-04-26T03:59:59Z'))).toBe(false);
    expect(nextDue(daily, null, at('2026-04-26T03:59:59Z'))).toBe(at('2026-04-26T04:00:00Z'));
    expect(isDue(daily, null, at('2026-04-26T04:00:00Z'))).toBe(true);
    expect(isDue(daily, null, at('2026-04-26T23:00:00Z'))).toBe(true);
  });

  it('daily: once per day after HH:MM, across the day boundary', () => {
    const ran = at('2026-04-26T04:00:10Z');
    expect(isDue(daily, ran, at('2026-04-26T04:00:30Z'))).toBe(false);
    expect(isDue(daily, ran, at('2026-04-27T00:30:00Z'))).toBe(false);
    expect(nextDue(daily, ran, at('2026-04-27T00:30:00Z'))).toBe(at('2026-04-27T04:00:00Z'));
    expect(isDue(daily, ran, at('2026-04-27T04:00:00Z'))).toBe(true);
    // Run by hand after the slot: that day is done.
    expect(isDue(daily, at('2026-04-27T10:00:00Z'), at('2026-04-27T11:00:00Z'))).toBe(false);
  });

  it('every N minutes: at once when never run, then N minutes after the last run', () => {
    const every = parseSchedule('every_60_minutes');
    expect(isDue(every, null, 0)).toBe(true);
    expect(isDue(every, at('2026-04-26T04:00:00Z'), at('2026-04-26T04:59:59Z'))).toBe(false);
    expect(nextDue(every, at('2026-04-26T04:00:00Z'), at('2026-04-26T04:10:00Z'))).toBe(
      at('2026-04-26T05:00:00Z'),
    );
    expect(isDue(every, at('2026-04-26T04:00:00Z'), at('2026-04-26T05:00:00Z'))).toBe(true);
  });

  it('manual: never due', () => {
    expect(isDue(parseSchedule('manual'), null, Date.now())).toBe(false);
    expect(nextDue(parseSchedule('manual'), null, Date.now())).toBeNull();
  });

  it('is idempotent: right after a run at a due time, the task is not due again', () => {
    const schedules = [
      'daily@00:00',
      'daily@04:30',
      'daily@23:59',
      'every_1_minutes',
      'every_90_minutes',
    ].map(parseSchedule);
    fc.assert(
      fc.property(
        fc.constantFrom(...schedules),
        fc.option(fc.integer({ min: 0, max: 4e12 }), { nil: null }),
        fc.integer({ min: 0, max: 4e12 }),
        fc.integer({ min: 0, max: 59_999 }),
        (schedule, lastRunAt, now, later) => {
          if (lastRunAt !== null && lastRunAt > now) return;
          if (!isDue(schedule, lastRunAt, now)) return;
          // Not due again before its next slot (a late run of a daily task may be a minute before the next).
          const next = nextDue(schedule, now, now) as number;
          expect(next).toBeGreaterThan(now);
          const soon = now + later;
          expect(isDue(schedule, now, soon)).toBe(soon >= next);
          expect(isDue(schedule, now, next)).toBe(true);
        },
      ),
      // A daily@23:59 task that last ran at 00:00 runs late at 23:58:00.015: its next slot is 59,985 ms away.
      { examples: [[schedules[2] as Schedule, 0, 2_853_359_880_015, 59_985]] },
    );
  });
});
