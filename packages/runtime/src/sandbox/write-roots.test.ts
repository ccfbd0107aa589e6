import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScratchpadError } from 'llm-scratchpad';
import { resolveWriteRoots, type WriteRootsOptions } from './write-roots.js';

let root: string;
let base: WriteRootsOptions;

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'scratchpad-roots-')));
  const home = join(root, 'home', 'ada');
  for (const folder of ['project', 'site', '.ssh/keys'].map((name) => join(home, name)))
    await mkdir(folder, { recursive: true });
  base = {
    cwd: join(home, 'project'),
    granted: [],
    home,
    homes: [home, join(root, 'home', 'bob')],
    protectedPaths: [join(home, '.ssh')],
    stagingRoot: join(root, 'deep', 'staging'),
  };
  await mkdir(join(root, 'deep'), { recursive: true });
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function refusal(options: Partial<WriteRootsOptions>): Promise<ScratchpadError> {
  try {
    await resolveWriteRoots({ ...base, ...options });
  } catch (error) {
    if (ScratchpadError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('resolveWriteRoots', () => {
  it('makes the working directory and the granted folders writable', async () => {
    expect(await resolveWriteRoots({ ...base, granted: ['~/site'] })).toEqual({
      roots: [base.cwd, join(base.home, 'site')],
      cwdWritable: true,
    });
  });

  it('refuses a home folder as working directory with a message that says what to do', async () => {
    const error = await refusal({ cwd: base.home });
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toMatch(/is your home folder, which is never writable by executors/);
    expect(error.hint).toMatch(/Start `scratchpad run` in a project folder/);
    expect(error.hint).toMatch(/write_roots/);
  });

  it('keeps a home working directory read-only when folders are granted', async () => {
    expect(await resolveWriteRoots({ ...base, cwd: base.home, granted: ['~/project'] })).toEqual({
      roots: [base.cwd],
      cwdWritable: false,
    });
  });

  it('refuses granted roots that are a home, hold one, are the root or a system folder, or are protected', async () => {
    expect((await refusal({ granted: ['~'] })).message).toMatch(/is your home folder/);
    expect((await refusal({ granted: [join(root, 'home')] })).message).toMatch(/holds a home folder/);
    expect((await refusal({ granted: ['/'] })).message).toMatch(
      /holds a home folder|root or a system folder/,
    );
    expect((await refusal({ granted: ['/etc'] })).message).toMatch(/root or a system folder/);
    expect((await refusal({ granted: ['~/.ssh/keys'] })).message).toMatch(/inside a protected location/);
    expect((await refusal({ granted: ['~/missing'] })).message).toMatch(/does not exist/);
    expect((await refusal({ granted: [root], homes: [] })).message).toMatch(
      /where each call's verified code is staged, below its top level/,
    );
  });

  it('grants /tmp, whose staging folder sits right under it (hidden, and a mount point nobody can rename)', async () => {
    const tmp = await realpath(tmpdir());
    expect(
      await resolveWriteRoots({
        ...base,
        granted: [tmp],
        // The test's home lives in /tmp; a real one does not (a root that holds a home stays refused).
        home: '/root',
        homes: ['/root'],
        stagingRoot: join(tmp, 'calls'),
      }),
    ).toEqual({ roots: [base.cwd, tmp], cwdWritable: true });
  });
});
