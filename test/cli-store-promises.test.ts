import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { builtCli } from './helpers/built-cli.js';
import { runCliAsync } from './helpers/run-cli-async.js';
import { runCliSync } from './helpers/run-cli-sync.js';
import { temporaryDatabase } from './helpers/temporary-database.js';

const postgresUrl = process.env.SCRATCHPAD_TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/test';
let cli: string;
let home: string;
beforeAll(() => {
  cli = builtCli();
  home = mkdtempSync(join(tmpdir(), 'scratchpad-cli-promises-'));
}, 120_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

const run = (args: string[], input?: string, env?: Record<string, string>) =>
  runCliSync(cli, home, args, input, env);

describe('the CLI keeps the store promises', () => {
  it('--ttl takes whole seconds up to 100 years; a bad one stores nothing and list keeps working', () => {
    for (const ttl of ['1.0001', '1e13', '0', '-5', '3155760001', 'soon']) {
      const written = run(['write', 'ttl-bad', '--ttl', ttl], 'x');
      expect(written.code).toBe(2);
      expect(written.stderr).toContain('whole seconds from 1 to 3155760000 (100 years)');
    }
    expect(run(['write', 'ttl-max', '--ttl', '3155760000'], 'x').code).toBe(0);
    const listed = run(['list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('ttl-max');
    expect(listed.stdout).not.toContain('ttl-bad');
  });

  it('an expired name is written again at once', async () => {
    expect(run(['write', 'short', '--ttl', '1'], 'x').code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    const again = run(['write', 'short'], 'y');
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(again.stdout).toMatch(/^created short/);
    expect(run(['read', 'short']).stdout).toBe('y');
  });

  it('a reader that closes early ends the command quietly with exit 0', async () => {
    run(['write', 'big'], 'line\n'.repeat(500_000));
    for (const args of [['read', 'big'], ['list']]) {
      const child = spawn(process.execPath, [cli, ...args], {
        env: { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: join(home, 'data') },
      });
      let stderr = '';
      child.stderr.on('data', (piece) => {
        stderr += piece;
      });
      child.stdout.once('data', () => child.stdout.destroy());
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect({ args, code, stderr }).toEqual({ args, code: 0, stderr: '' });
    }
  });

  it('a full disk on stdout is one line on stderr and exit 1', () => {
    const full = openSync('/dev/full', 'w');
    try {
      for (const args of [['read', 'big'], ['list'], ['--json', 'list']]) {
        const result = spawnSync(process.execPath, [cli, ...args], {
          env: { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: join(home, 'data') },
          stdio: ['ignore', full, 'pipe'],
        });
        const stderr = result.stderr.toString('utf8');
        expect(result.status).toBe(1);
        expect(stderr.trimEnd().split('\n')).toHaveLength(1);
        expect(stderr).toContain('no space left on the device stdout goes to');
        if (args[0] === '--json') expect(JSON.parse(stderr).error.code).toBe('STORE_FULL');
      }
    } finally {
      closeSync(full);
    }
  });

  it('a flag wins over its environment variable', () => {
    const other = join(home, 'other.db');
    expect(run(['--db', other, 'write', 'where'], 'flag').code).toBe(0);
    const env = { SCRATCHPAD_DB: join(home, 'env.db') };
    const read = run(['--store', `sqlite:${other}`, 'read', 'where'], undefined, env);
    expect(read).toMatchObject({ code: 0, stdout: 'flag', stderr: '' });
    expect(run(['--db', other, 'read', 'where'], undefined, { SCRATCHPAD_STORE: 'memory:' }).stdout).toBe(
      'flag',
    );
  });

  it('--json makes every error JSON, usage errors included', () => {
    for (const args of [
      ['--json', 'read', 'nope'],
      ['--json', 'write', 'x', '--ttl', 'soon'],
      ['--json', 'no-such-command'],
    ]) {
      const result = run(args, 'x');
      expect(result.code).not.toBe(0);
      const parsed = JSON.parse(result.stderr) as { error: { code: string; message: string } };
      expect(parsed.error.code).toMatch(/^[A-Z_]+$/);
      expect(parsed.error.message.length).toBeGreaterThan(0);
    }
  });

  it('messages name the CLI flags, not library options', () => {
    run(['write', 'versioned'], 'one');
    const stale = run(['write', 'versioned', '--if-version', '7'], 'two');
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('--if-version 1');
    expect(stale.stderr).not.toContain('ifVersion');
    run(['write', 'twice'], 'a a');
    const ambiguous = run(['edit', 'twice', '--old', 'a', '--new', 'b']);
    expect(ambiguous.stderr).toContain('--all');
    expect(ambiguous.stderr).not.toContain('replaceAll');
  });

  it('write NAME FILE reads the file', () => {
    const file = join(home, 'input.txt');
    writeFileSync(file, 'from a file\n');
    expect(run(['write', 'filed', file]).code).toBe(0);
    expect(run(['read', 'filed']).stdout).toBe('from a file\n');
    const missing = run(['write', 'filed', join(home, 'missing.txt')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Cannot read');
  });

  it('10 concurrent appends from the CLI all land, on SQLite, fs and PostgreSQL', async () => {
    // PostgreSQL: a database of this run's own (the CLI opens the default schema of the URL's database).
    const session = `race-${randomBytes(6).toString('hex')}`;
    const database = await temporaryDatabase(postgresUrl);
    onTestFinished(database.drop);
    for (const store of [`sqlite:${join(home, 'race.db')}`, `fs:${join(home, 'race-fs')}`, database.url]) {
      const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: join(home, 'data') };
      const runs = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          runCliAsync(cli, ['--store', store, '--session', session, 'write', 'log', '--append'], {
            env,
            input: `line ${index}\n`,
          }),
        ),
      );
      expect(runs.map((result) => [result.code, result.stderr])).toEqual(runs.map(() => [0, '']));
      const read = run(['--store', store, '--session', session, 'read', 'log']);
      const lines = read.stdout.trimEnd().split('\n').sort();
      expect(lines).toEqual(Array.from({ length: 10 }, (_, index) => `line ${index}`).sort());
      expect(run(['--store', store, 'sessions', 'delete', session]).code).toBe(0);
    }
  }, 180_000);
});
