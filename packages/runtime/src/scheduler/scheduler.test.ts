import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScratchpadError } from 'llm-scratchpad';
import { createScheduler, type TaskDefinition } from './scheduler.js';
import { runSchedulerDaemon } from './scheduler-daemon.js';
import { SchedulerState } from './scheduler-state.js';

let dir: string;
let state: SchedulerState;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scratchpad-scheduler-'));
  state = SchedulerState.open(join(dir, 'scheduler.sqlite'));
});
afterEach(() => {
  state.close();
  rmSync(dir, { recursive: true, force: true });
});

const at = (iso: string) => Date.parse(iso);

function task(name: string, schedule: string, run: TaskDefinition['run']): TaskDefinition {
  return { name, schedule, description: name, run };
}

describe('createScheduler', () => {
  it('runs due tasks in order, catches a failure with its stack, and goes on', async () => {
    const calls: string[] = [];
    const scheduler = await createScheduler({
      state,
      tasks: [
        task('boom', 'every_5_minutes', async () => {
          calls.push('boom');
          throw new Error('the disk is gone');
        }),
        task('fine', 'every_5_minutes', async ({ now }) => {
          calls.push('fine');
          return `ran at ${new Date(now).toISOString()}`;
        }),
        task('by_hand', 'manual', async () => 'manual run'),
      ],
      clock: () => 0,
    });
    const runs = await scheduler.tick(at('2026-04-26T10:00:00Z'));
    expect(calls).toEqual(['boom', 'fine']);
    expect(runs[0]).toMatchObject({ task: 'boom', status: 'error' });
    expect(runs[0]?.output).toMatch(/^Error: the disk is gone\n\s+at /);
    expect(runs[1]).toMatchObject({ task: 'fine', status: 'ok', output: 'ran at 2026-04-26T10:00:00.000Z' });
    expect(await scheduler.tick(at('2026-04-26T10:04:59Z'))).toEqual([]);
    expect((await scheduler.tick(at('2026-04-26T10:05:00Z'))).map((run) => run.task)).toEqual([
      'boom',
      'fine',
    ]);
    expect(await scheduler.runNow('by_hand', at('2026-04-26T11:00:00Z'))).toMatchObject({
      output: 'manual run',
    });
    expect(await scheduler.status(at('2026-04-26T11:00:00Z'))).toEqual([
      expect.objectContaining({ name: 'boom', last_status: 'error', next_due: '2026-04-26T11:00:00.000Z' }),
      expect.objectContaining({ name: 'by_hand', last_status: 'ok', next_due: null }),
      expect.objectContaining({ name: 'fine', last_status: 'ok' }),
    ]);
    expect(await state.runs()).toHaveLength(5);
  });
});

describe('the daemon lock', () => {
  it('refuses a second live daemon, names it, and takes over from a dead one', async () => {
    const other = SchedulerState.open(state.path);
    try {
      await state.lockDaemon(process.pid, 0);
      // The test runner's parent process is alive and is not this process.
      const error = await other.lockDaemon(process.ppid, 0).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(ScratchpadError.hasCode(error, 'SCHEDULER_LOCKED')).toBe(true);
      expect((error as Error).message).toContain(`process ${process.pid} on `);
      await state.unlockDaemon(process.pid);
      const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
      await other.lockDaemon(Number(dead.stdout.toString()), 0);
      expect(await state.daemon()).toBeUndefined();
      await state.lockDaemon(process.pid, 0);
      expect((await state.daemon())?.pid).toBe(process.pid);
    } finally {
      other.close();
    }
  });

  it('runSchedulerDaemon ticks until aborted, then releases the lock', async () => {
    const stop = new AbortController();
    let ticks = 0;
    const scheduler = await createScheduler({
      state,
      tasks: [task('count', 'every_1_minutes', async () => 'ok')],
    });
    let clock = at('2026-04-26T10:00:00Z');
    await runSchedulerDaemon({
      scheduler,
      state,
      signal: stop.signal,
      intervalMs: 1,
      now: () => {
        clock += 60_000;
        return clock;
      },
      onTick: (runs) => {
        ticks += 1;
        expect(runs.map((run) => run.task)).toEqual(['count']);
        if (ticks === 3) stop.abort();
      },
    });
    expect(ticks).toBe(3);
    expect(await state.daemon()).toBeUndefined();
  });
});
