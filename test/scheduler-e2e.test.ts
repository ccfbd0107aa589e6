import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDesiredSignature } from '../packages/runtime/src/mnestome/desired-signature.js';
import { Mnestome } from '../packages/runtime/src/mnestome/mnestome.js';
import { openRawConnection } from '../src/stores/sqlite/test-fixtures/raw-connection.js';
import { builtCli } from './helpers/built-cli.js';
import { createRunHome, type RunHome } from './helpers/run-home.js';

let home: RunHome;
beforeAll(() => {
  home = createRunHome('scratchpad-scheduler-');
}, 120_000);
afterAll(() => home.close());

async function tick(now: string, target: RunHome = home) {
  const result = await target.cli(['--json', 'scheduler', 'tick', '--now', now]);
  return {
    ...result,
    json: JSON.parse(result.stdout) as { now: string; runs: Array<Record<string, string>> },
  };
}

/** Records a proto-mnest fs_read → `name` used three times (recurring), after `before` (more passages). */
async function recordProto(
  target: RunHome,
  name: string,
  args: Record<string, string>,
  before: (mnestome: Mnestome) => Promise<unknown> | undefined = () => undefined,
): Promise<void> {
  const mnestome = Mnestome.open(join(target.dataDir, 'mnestome.db'));
  try {
    await before(mnestome);
    const signature = buildDesiredSignature(name, args, [{ from: 'fs_read', field: 'content' }]);
    for (let use = 0; use < 3; use += 1)
      await mnestome.recordPassing({
        src: 'fs_read',
        dst: name,
        dstExists: false,
        desiredSignature: signature,
      });
  } finally {
    mnestome.close();
  }
}

const ran = (result: Awaited<ReturnType<typeof tick>>) => result.json.runs.map((run) => run.task);

describe('scratchpad scheduler', () => {
  it('status lists the built-in tasks with their schedules, never run, and when they are next due', async () => {
    const result = await home.cli(['--json', 'scheduler', 'status', '--now', '2026-04-26T03:00:00Z']);
    expect(JSON.parse(result.stdout)).toEqual([
      {
        name: 'apply_ager',
        schedule: 'daily@04:00',
        last_run_at: null,
        last_status: null,
        last_output: null,
        next_due: '2026-04-26T04:00:00.000Z',
      },
      expect.objectContaining({
        name: 'gc',
        schedule: 'every_60_minutes',
        next_due: '2026-04-26T03:00:00.000Z',
      }),
      expect.objectContaining({
        name: 'synt_suggest',
        schedule: 'daily@04:30',
        next_due: '2026-04-26T04:30:00.000Z',
      }),
    ]);
  });

  it('ticks with --now run what is due, once per slot, across a day boundary', async () => {
    expect(ran(await tick('2026-04-26T03:59:00Z'))).toEqual(['gc']);
    expect(ran(await tick('2026-04-26T04:00:00Z'))).toEqual(['apply_ager']);
    // Two ticks in one slot: nothing runs twice.
    const again = await home.cli(['scheduler', 'tick', '--now', '2026-04-26T04:00:30Z']);
    expect(again.stdout).toBe('nothing due at 2026-04-26T04:00:30.000Z\n');
    expect(ran(await tick('2026-04-26T04:45:00Z'))).toEqual(['synt_suggest']);
    // Past midnight: gc is due again (60 minutes), the daily tasks wait for their time of day.
    expect(ran(await tick('2026-04-27T00:10:00Z'))).toEqual(['gc']);
    expect(ran(await tick('2026-04-27T04:00:00Z'))).toEqual(['apply_ager', 'gc']);
    const [ager] = (await tick('2026-04-27T04:31:00Z')).json.runs;
    expect(ager).toMatchObject({
      task: 'synt_suggest',
      status: 'ok',
      started_at: '2026-04-27T04:31:00.000Z',
    });
  });

  it('two concurrent ticks in one slot run each task once', async () => {
    const [first, second] = await Promise.all([tick('2026-04-27T06:00:00Z'), tick('2026-04-27T06:00:00Z')]);
    expect([...ran(first), ...ran(second)]).toEqual(['gc']);
  });

  it('keeps every run in the append-only runs table', () => {
    const database = openRawConnection(join(home.dataDir, 'scheduler.sqlite'));
    try {
      const runs = database.prepare('SELECT task, started_at, status FROM runs ORDER BY id').all();
      expect(runs).toEqual([
        { task: 'gc', started_at: '2026-04-26T03:59:00.000Z', status: 'ok' },
        { task: 'apply_ager', started_at: '2026-04-26T04:00:00.000Z', status: 'ok' },
        { task: 'synt_suggest', started_at: '2026-04-26T04:45:00.000Z', status: 'ok' },
        { task: 'gc', started_at: '2026-04-27T00:10:00.000Z', status: 'ok' },
        { task: 'apply_ager', started_at: '2026-04-27T04:00:00.000Z', status: 'ok' },
        { task: 'gc', started_at: '2026-04-27T04:00:00.000Z', status: 'ok' },
        { task: 'synt_suggest', started_at: '2026-04-27T04:31:00.000Z', status: 'ok' },
        { task: 'gc', started_at: '2026-04-27T06:00:00.000Z', status: 'ok' },
      ]);
      expect(() => database.prepare("UPDATE runs SET status = 'ok'").run()).toThrow(/append-only/);
      expect(() => database.prepare('DELETE FROM runs').run()).toThrow(/append-only/);
    } finally {
      database.close();
    }
  });

  it('run-now runs a task whatever its schedule; an unknown task lists the known ones', async () => {
    const result = await home.cli(['scheduler', 'run-now', 'apply_ager']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^apply_ager: ok — \d+ decayed, \d+ demoted, \d+ purged\n$/);
    const unknown = await home.cli(['scheduler', 'run-now', 'backup']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      'scratchpad: Error (INVALID_ARGUMENT): There is no scheduler task named "backup". The tasks are: apply_ager, synt_suggest, gc.\n',
    );
  });

  it('synt_suggest composes each recurring proto-mnest and logs the outcome', async () => {
    await recordProto(home, 'save_copy', { path: 'a', content: 'b' }, (mnestome) =>
      mnestome.recordPassing({ src: 'fs_read', dst: 'fs_write', dstExists: true }),
    );
    const result = await home.cli(['scheduler', 'run-now', 'synt_suggest']);
    expect(result.stdout).toBe(
      'synt_suggest: ok — fs_read → save_copy (uses 3, weight 0.35): composed, chain fs_read → fs_write, first hop fs_write\n',
    );
  });

  it('synt_suggest asks the configured wise tier how to close an abandoned proto-mnest', async () => {
    const wiseHome = createRunHome('scratchpad-scheduler-wise-');
    const wise = await wiseHome.openai([
      (request) => {
        expect(request.body.tools).toBeUndefined();
        expect(request.body.messages[0].content).toMatch(/^You are thorough and reflective\./);
        expect(request.body.messages[1].content).toContain('"name": "translate_to_klingon"');
        return 'Write translate_to_klingon(text) returning {ok, content}.';
      },
    ]);
    try {
      await recordProto(wiseHome, 'translate_to_klingon', { text: 'x' });
      const withoutWise = await wiseHome.cli(['scheduler', 'run-now', 'synt_suggest']);
      expect(withoutWise.stdout).toBe(
        'synt_suggest: ok — fs_read → translate_to_klingon (uses 3, weight 0.35): abandoned\n',
      );
      const config = wiseHome.config(
        'wise',
        `[runtime.llm.wise]\nprovider = "openai"\nmodel = "frontier-1"\nbase_url = "${wise.baseURL}"\napi_key_env = "WISE_KEY"\n`,
      );
      const withWise = await wiseHome.cli(['scheduler', 'run-now', 'synt_suggest'], {
        SCRATCHPAD_CONFIG: config,
        WISE_KEY: 'test',
      });
      expect(withWise.stdout).toBe(
        'synt_suggest: ok — fs_read → translate_to_klingon (uses 3, weight 0.35): abandoned; the wise tier suggests: Write translate_to_klingon(text) returning {ok, content}.\n',
      );
    } finally {
      await wiseHome.close();
    }
  });

  it('a failing task is recorded as error with its stack, and the tick goes on', async () => {
    const broken = createRunHome('scratchpad-scheduler-broken-');
    try {
      mkdirSync(broken.dataDir, { recursive: true });
      writeFileSync(join(broken.dataDir, 'mnestome.db'), 'not a database '.repeat(200));
      const result = await tick('2026-04-26T05:00:00Z', broken);
      expect(result.code).toBe(1);
      expect(result.json.runs.map((run) => [run.task, run.status])).toEqual([
        ['apply_ager', 'error'],
        ['synt_suggest', 'error'],
        ['gc', 'ok'],
      ]);
      expect(result.stderr).toContain('apply_ager, synt_suggest failed');
      const status = JSON.parse((await broken.cli(['--json', 'scheduler', 'status'])).stdout);
      const ager = status.find((task: { name: string }) => task.name === 'apply_ager');
      expect(ager.last_status).toBe('error');
      expect(ager.last_output).toMatch(/^ScratchpadError: .*mnestome\.db is not a SQLite database/);
      expect(ager.last_output).toMatch(/\n {4}at /);
    } finally {
      await broken.close();
    }
  });

  it('daemon: ticks at start, refuses a second daemon naming the holder, stops cleanly on SIGTERM', async () => {
    const daemon = spawn(process.execPath, [builtCli(), 'scheduler', 'daemon'], {
      env: home.env(),
      cwd: home.workdir,
    });
    try {
      const started = await waitForOutput(daemon, /scheduler daemon started \(process (\d+)\)/);
      expect(started[1]).toBe(String(daemon.pid));
      const second = await home.cli(['scheduler', 'daemon']);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(
        `Error (SCHEDULER_LOCKED): A scheduler daemon already runs on ${join(home.dataDir, 'scheduler.sqlite')}: process ${daemon.pid} on `,
      );
      const status = await home.cli(['scheduler', 'status']);
      expect(status.stdout).toContain(`daemon: running (process ${daemon.pid} on `);
      const exit = new Promise<number | null>((resolve) => daemon.once('exit', (code) => resolve(code)));
      daemon.kill('SIGTERM');
      expect(await exit).toBe(0);
      expect(output.get(daemon)).toContain('scheduler daemon stopped\n');
      expect((await home.cli(['scheduler', 'status'])).stdout).toContain('daemon: not running');
    } finally {
      if (daemon.exitCode === null) daemon.kill('SIGKILL');
    }
  });
});

const output = new WeakMap<ChildProcess, string>();

/** Resolves with the match once `pattern` appears on the child's stderr (at most 20 s). */
function waitForOutput(child: ChildProcess, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    output.set(child, '');
    const timer = setTimeout(() => reject(new Error(`no ${pattern} in: ${output.get(child)}`)), 20_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      output.set(child, `${output.get(child)}${chunk.toString('utf8')}`);
      const match = pattern.exec(output.get(child) ?? '');
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    });
    child.once('exit', () => reject(new Error(`the daemon exited: ${output.get(child)}`)));
  });
}
