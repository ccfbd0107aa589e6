import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../executors/executor.js';
import { runExecutorDetailed } from '../executors/run-executor.js';
import { createSandbox } from './create-sandbox.js';
import type { Sandbox } from './sandbox.js';
import { defaultSandboxSettings } from './sandbox-settings.js';
import { sandboxTestHome } from './test-fixtures/sandbox-test-home.js';

/**
 * Issue 26: a protected location under a write root (here a store kept in `./.sp` and one in `./data/.sp`, as
 * `--store sqlite:./.sp/scratch.db` makes it) stays hidden whatever the executor renames, call after call.
 */
const CANARY = `canary-${Math.random().toString(36).slice(2)}`;
let root: string;
let work: string;
let env: Record<string, string>;
let sandbox: Sandbox;
let shellExec: Executor;
const stores = ['.sp', join('data', 'deeper', '.sp')];

async function shell(command: string) {
  const run = await runExecutorDetailed(
    shellExec,
    { command },
    { cwd: work, sandbox, parentEnv: env, timeoutMs: 20_000 },
  );
  return `${run.outcome.content ?? ''}\n${run.outcome.error ?? ''}`;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'scratchpad-rename-'));
  const home = join(root, 'home');
  work = join(home, 'work');
  const scratchpadPaths = [join(home, '.config', 'scratchpad'), join(home, '.local', 'share', 'scratchpad')];
  for (const store of stores) {
    await mkdir(join(work, store, 'scratch.db.blobs'), { recursive: true });
    for (const file of ['scratch.db', 'scratch.db-wal', 'scratch.db-shm'])
      await writeFile(join(work, store, file), `${CANARY} ${file}\n`);
    await writeFile(join(work, store, 'scratch.db.blobs', 'blob'), `${CANARY} blob\n`);
    for (const name of ['scratch.db', 'scratch.db-wal', 'scratch.db-shm', 'scratch.db.blobs'])
      scratchpadPaths.push(join(work, store, name));
  }
  const testHome = await sandboxTestHome(home);
  env = testHome.env;
  shellExec = testHome.executors.get('shell_exec') as Executor;
  sandbox = await createSandbox({ settings: defaultSandboxSettings(), cwd: work, env, scratchpadPaths });
  expect(sandbox.status).toBe('bubblewrap');
}, 60_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('protected locations under a write root (real bubblewrap)', () => {
  it('renaming any folder above a hidden store does not unmask it for the next call', async () => {
    const first = await shell(
      'mv .sp .sp2; mv data data2; mv data/deeper data/deeper2; mv data/deeper/.sp data/deeper/.sp2; ' +
        'rm -rf .sp data; echo done',
    );
    expect(first).toContain('done');
    const second = await shell(
      'cat .sp2/scratch.db data2/deeper/.sp/scratch.db data/deeper2/.sp/scratch.db data/deeper/.sp2/scratch.db ' +
        '.sp/scratch.db .sp/scratch.db-shm data/deeper/.sp/scratch.db .sp/scratch.db.blobs/blob 2>&1; ' +
        'grep -r canary . 2>/dev/null; echo done',
    );
    expect(second).toContain('done');
    expect(second).not.toContain(CANARY);
    for (const store of stores) {
      expect(readFileSync(join(work, store, 'scratch.db'), 'utf8')).toBe(`${CANARY} scratch.db\n`);
      expect(readFileSync(join(work, store, 'scratch.db-shm'), 'utf8')).toBe(`${CANARY} scratch.db-shm\n`);
    }
    for (const moved of ['.sp2', 'data2', join('data', 'deeper2'), join('data', 'deeper', '.sp2')])
      expect(existsSync(join(work, moved))).toBe(false);
  });

  it('the folders around a store stay writable', async () => {
    const output = await shell('echo x > .sp/note.txt && echo y > data/deeper/note.txt && echo done');
    expect(output).toContain('done');
    expect(readFileSync(join(work, '.sp', 'note.txt'), 'utf8')).toBe('x\n');
  });
});
