import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
 * Issue 26: nothing an executor writes makes the host run code through git. Each route is one real `shell_exec`
 * call under real bubblewrap; then git runs on the host where a user (or a shell prompt) would run it, and the
 * canary its planted `core.fsmonitor` or hook would create must not exist.
 */
let root: string;
let home: string;
let work: string;
let other: string;
let env: Record<string, string>;
let sandbox: Sandbox;
let shellExec: Executor;

const hostGitEnv = () => ({
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: home,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
});

/** Runs git on the host as the user would; its failure is fine (a refused repository is no repository). */
function hostGit(cwd: string, ...args: string[]): string {
  try {
    return execFileSync('git', args, { cwd, env: hostGitEnv(), encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    return `failed: ${(error as { stderr?: string }).stderr ?? ''}`;
  }
}

/** A planted command that leaves `canary` behind if git ever runs it. */
const plant = (canary: string) => `touch ${canary}`;
const fsmonitorConfig = (canary: string) =>
  `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "${plant(canary)}"\n`;

async function shell(command: string, cwd = work) {
  return runExecutorDetailed(shellExec, { command }, { cwd, sandbox, parentEnv: env, timeoutMs: 20_000 });
}

function asideNames(folder: string, name: string): string[] {
  return readdirSync(folder).filter((entry) => entry.startsWith(`${name}.scratchpad-refused-`));
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'scratchpad-git-'));
  home = join(root, 'home');
  work = join(home, 'work');
  other = join(root, 'other');
  await mkdir(work, { recursive: true });
  await mkdir(other, { recursive: true });
  hostGit(work, 'init', '-q', '.');
  await mkdir(join(work, '.git', 'modules', 'sub', 'hooks'), { recursive: true });
  await mkdir(join(work, 'vendor', 'lib'), { recursive: true });
  hostGit(join(work, 'vendor', 'lib'), 'init', '-q', '.');
  await mkdir(join(work, 'plain'), { recursive: true });
  for (const [name, hooks] of [
    ['hooked', '.githooks'],
    ['hooked-later', '.hooks'],
  ] as const) {
    await mkdir(join(work, name), { recursive: true });
    hostGit(join(work, name), 'init', '-q', '.');
    hostGit(join(work, name), 'config', 'core.hooksPath', hooks);
  }
  await mkdir(join(work, 'hooked', '.githooks'), { recursive: true });
  await writeFile(join(work, 'hooked', '.githooks', 'pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  await writeFile(join(work, '.gitmodules'), '[submodule "sub"]\n\tpath = sub\n\turl = ./sub\n');
  const testHome = await sandboxTestHome(home);
  env = testHome.env;
  shellExec = testHome.executors.get('shell_exec') as Executor;
  sandbox = await createSandbox({
    settings: { ...defaultSandboxSettings(), writeRoots: [other] },
    cwd: work,
    env,
    scratchpadPaths: testHome.scratchpadPaths,
  });
  expect(sandbox.status).toBe('bubblewrap');
}, 60_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('git metadata in the write roots (real bubblewrap, real git on the host)', () => {
  it('route A: .git/commondir cannot be written, so git never reads a config the executor made', async () => {
    const canary = join(root, 'canary-a');
    const evil = join(work, 'evil');
    const run = await shell(
      `mkdir -p ${evil}/hooks && printf '${fsmonitorConfig(canary)}' > ${evil}/config && ` +
        `echo ${evil} > .git/commondir; echo done`,
    );
    expect(run.outcome.content).toContain('done');
    expect(existsSync(join(work, '.git', 'commondir'))).toBe(false);
    hostGit(work, 'status');
    expect(existsSync(canary)).toBe(false);
  });

  it('route C: the hooks of a submodule inside .git/modules are out of reach', async () => {
    const canary = join(root, 'canary-c');
    const run = await shell(
      `printf '#!/bin/sh\\n${plant(canary)}\\n' > .git/modules/sub/hooks/pre-commit && echo WROTE; echo done`,
    );
    expect(run.outcome.content).toContain('done');
    expect(run.outcome.content).not.toContain('WROTE');
    expect(existsSync(join(work, '.git', 'modules', 'sub', 'hooks', 'pre-commit'))).toBe(false);
  });

  it('route B: .git cannot be renamed away and rebuilt', async () => {
    const canary = join(root, 'canary-b');
    await shell(
      `mv .git .git-old; mkdir -p .git; git init -q . ; git config core.fsmonitor "${plant(canary)}"; echo done`,
    );
    expect(existsSync(join(work, '.git-old'))).toBe(false);
    expect(existsSync(join(work, '.git', 'HEAD'))).toBe(true);
    hostGit(work, 'status');
    expect(existsSync(canary)).toBe(false);
  });

  it('route D: a .git made in a folder that is no repository is refused and moved aside', async () => {
    const canary = join(root, 'canary-d');
    const run = await shell(
      `mkdir -p .git/objects .git/refs && echo 'ref: refs/heads/main' > .git/HEAD && ` +
        `printf '${fsmonitorConfig(canary)}' > .git/config && echo done`,
      other,
    );
    expect(run.refused).toBe('git');
    expect(run.outcome.ok).toBe(false);
    expect(run.outcome.error).toMatch(/^Refused: shell_exec changed git metadata in a write root/);
    expect(run.outcome.error).toContain(`${join(other, '.git')} created: moved aside to`);
    expect(run.outcome.error).toContain('done');
    expect(existsSync(join(other, '.git'))).toBe(false);
    expect(asideNames(other, '.git')).toHaveLength(1);
    hostGit(other, 'status');
    expect(existsSync(canary)).toBe(false);
  });

  it('a .git file or link pointing at a git directory the executor built is refused, and so is the directory', async () => {
    const canary = join(root, 'canary-e');
    const run = await shell(
      `git init -q --bare ${work}/plain/hidden.git && git --git-dir=${work}/plain/hidden.git config core.fsmonitor "${plant(canary)}" && ` +
        `echo "gitdir: ${work}/plain/hidden.git" > plain/.git && mkdir -p plain/linked && ln -s ../hidden.git plain/linked/.git && echo done`,
    );
    expect(run.refused).toBe('git');
    expect(existsSync(join(work, 'plain', '.git'))).toBe(false);
    expect(existsSync(join(work, 'plain', 'linked', '.git'))).toBe(false);
    expect(existsSync(join(work, 'plain', 'hidden.git', 'HEAD'))).toBe(false);
    hostGit(join(work, 'plain'), 'status');
    hostGit(join(work, 'plain', 'linked'), 'status');
    hostGit(join(work, 'plain', 'hidden.git'), 'status');
    expect(existsSync(canary)).toBe(false);
  });

  it('a nested repository cannot be carried away by renaming a folder above it', async () => {
    const canary = join(root, 'canary-g');
    const before = readFileSync(join(work, 'vendor', 'lib', '.git', 'config'), 'utf8');
    await shell(
      `mv vendor vendor2; mv vendor/lib vendor/lib2; mkdir -p vendor/lib && cd vendor/lib && git init -q . ; git config core.fsmonitor "${plant(canary)}"; echo done`,
    );
    expect(existsSync(join(work, 'vendor2'))).toBe(false);
    expect(existsSync(join(work, 'vendor', 'lib2'))).toBe(false);
    expect(readFileSync(join(work, 'vendor', 'lib', '.git', 'config'), 'utf8')).toBe(before);
    hostGit(join(work, 'vendor', 'lib'), 'status');
    expect(existsSync(canary)).toBe(false);
  });

  it('a repository built elsewhere and moved in, deep down, with its folders dated back, is refused', async () => {
    const canary = join(root, 'canary-j');
    const run = await shell(
      `mkdir -p build && git init -q build && git -C build config core.fsmonitor "${plant(canary)}" && ` +
        `mkdir -p deep/a/b && mv build deep/a/b/project && touch -d 2001-01-01 deep/a/b deep/a deep && echo done`,
    );
    expect(run.refused).toBe('git');
    expect(existsSync(join(work, 'deep', 'a', 'b', 'project', '.git'))).toBe(false);
    expect(asideNames(join(work, 'deep', 'a', 'b', 'project'), '.git')).toHaveLength(1);
    hostGit(join(work, 'deep', 'a', 'b', 'project'), 'status');
    expect(existsSync(canary)).toBe(false);
  });

  it('a changed .gitmodules is written back as it was; a new one is moved aside', async () => {
    const original = readFileSync(join(work, '.gitmodules'), 'utf8');
    const run = await shell(
      `printf '[submodule "x"]\\n\\tpath = x\\n\\turl = ext::sh -c touch%% /tmp/pwned\\n' >> .gitmodules && ` +
        `printf '[submodule "y"]\\n\\tpath = y\\n\\turl = ext::sh\\n' > plain/.gitmodules && echo done`,
    );
    expect(run.outcome.error).toContain('done');
    expect(run.refused).toBe('git');
    expect(run.outcome.error).toContain('the previous version was written back');
    expect(readFileSync(join(work, '.gitmodules'), 'utf8')).toBe(original);
    expect(asideNames(work, '.gitmodules')).toHaveLength(1);
    expect(existsSync(join(work, 'plain', '.gitmodules'))).toBe(false);
    expect(asideNames(join(work, 'plain'), '.gitmodules')).toHaveLength(1);
  });

  it('the hooks folder core.hooksPath names in the work tree is read-only, and one made later is moved aside', async () => {
    const canary = join(root, 'canary-hooks');
    const hook = `#!/bin/sh\\n${plant(canary)}\\n`;
    const run = await shell(
      `printf '${hook}' > hooked/.githooks/pre-commit && echo WROTE; ` +
        `mkdir -p hooked-later/.hooks && printf '${hook}' > hooked-later/.hooks/pre-commit && chmod +x hooked-later/.hooks/pre-commit && echo done`,
    );
    expect(`${run.outcome.content ?? ''} ${run.outcome.error ?? ''}`).toContain('done');
    expect(`${run.outcome.content ?? ''} ${run.outcome.error ?? ''}`).not.toContain('WROTE');
    expect(run.refused).toBe('git');
    expect(run.outcome.error).toContain(`${join(work, 'hooked-later', '.hooks')} created: moved aside to`);
    expect(readFileSync(join(work, 'hooked', '.githooks', 'pre-commit'), 'utf8')).toBe('#!/bin/sh\nexit 0\n');
    for (const name of ['hooked', 'hooked-later'])
      hostGit(
        join(work, name),
        '-c',
        'user.name=a',
        '-c',
        'user.email=a@b',
        'commit',
        '-q',
        '--allow-empty',
        '-m',
        'x',
      );
    expect(existsSync(canary)).toBe(false);
  });

  it('a removed .gitmodules is written back', async () => {
    const original = readFileSync(join(work, '.gitmodules'), 'utf8');
    const run = await shell('rm .gitmodules && echo done');
    expect(run.refused).toBe('git');
    expect(run.outcome.error).toContain(
      `${join(work, '.gitmodules')} removed: the previous version was written back`,
    );
    expect(readFileSync(join(work, '.gitmodules'), 'utf8')).toBe(original);
  });

  it('a repository deeper than a path can name is refused as unexamined, and later calls still run', async () => {
    const name = 'x'.repeat(200);
    const run = await shell(
      `for level in $(seq 22); do mkdir ${name} && cd ${name} || exit 1; done; mkdir .git && echo '[core]' > .git/config && echo done`,
    );
    expect(run.outcome.error).toContain('done');
    expect(run.refused).toBe('git');
    expect(run.outcome.error).toMatch(
      /^Refused: shell_exec left folders in a write root that the sandbox could not examine/,
    );
    expect(run.outcome.error).toMatch(/unexamined: the guard could not look into it \(ENAMETOOLONG\)/);
    expect(run.outcome.error).toContain('Not every change could be undone');
    const next = await shell('echo done');
    expect(next.refused).toBeUndefined();
    expect(next.outcome.content).toContain('done');
    await shell(`rm -rf ${name}`);
  });

  it('an ordinary call is not refused, and a repository the user makes between calls is theirs', async () => {
    const run = await shell('echo ok > notes.txt && git status --short >/dev/null; echo done');
    expect(run.refused).toBeUndefined();
    expect(run.outcome.ok).toBe(true);
    hostGit(work, 'init', '-q', 'user-project');
    const next = await shell('echo x > user-project/.git/config; echo x > user-project/file.txt; echo done');
    expect(next.refused).toBeUndefined();
    expect(readFileSync(join(work, 'user-project', '.git', 'config'), 'utf8')).toContain('[core]');
    expect(readFileSync(join(work, 'user-project', 'file.txt'), 'utf8')).toBe('x\n');
  });
});
