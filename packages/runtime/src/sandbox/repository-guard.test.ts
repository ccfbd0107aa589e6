import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { RepositoryGuard } from './repository-guard.js';

const scratch = mkdtempSync(join(tmpdir(), 'scratchpad-guard-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const FOLDERS = ['.', 'a', 'a/b', 'c'];
/** What a call may do inside a sandbox (renaming a pinned folder or a read-only `.git` is not possible there). */
const step = fc.record({
  kind: fc.constantFrom(
    'git-folder',
    'git-file',
    'git-link',
    'bare',
    'gitmodules-new',
    'gitmodules-append',
    'gitmodules-remove',
    'gitmodules-folder',
    'new-folder-with-repo',
  ),
  at: fc.constantFrom(...FOLDERS),
  name: fc.constantFrom('x', 'y'),
});

function apply(root: string, action: { kind: string; at: string; name: string }): void {
  const at = join(root, action.at);
  try {
    if (action.kind === 'git-folder') mkdirSync(join(at, '.git', 'hooks'), { recursive: true });
    if (action.kind === 'git-file') writeFileSync(join(at, '.git'), `gitdir: ${root}/elsewhere\n`);
    if (action.kind === 'git-link') symlinkSync(join(root, 'elsewhere'), join(at, '.git'));
    if (action.kind === 'bare') {
      for (const name of ['objects', 'refs'])
        mkdirSync(join(at, `${action.name}.git`, name), { recursive: true });
      writeFileSync(join(at, `${action.name}.git`, 'HEAD'), 'ref: refs/heads/main\n');
    }
    if (action.kind === 'gitmodules-new')
      writeFileSync(join(at, '.gitmodules'), `[submodule "${action.name}"]\n`);
    if (action.kind === 'gitmodules-append') appendFileSync(join(at, '.gitmodules'), '\turl = ext::sh\n');
    if (action.kind === 'gitmodules-remove') unlinkSync(join(at, '.gitmodules'));
    if (action.kind === 'gitmodules-folder') mkdirSync(join(at, '.gitmodules'));
    if (action.kind === 'new-folder-with-repo') {
      mkdirSync(join(at, `new-${action.name}`, '.git'), { recursive: true });
      mkdirSync(join(at, `new-${action.name}`, 'deep'), { recursive: true });
      writeFileSync(join(at, `new-${action.name}`, 'deep', '.gitmodules'), '');
    }
  } catch {
    // The name is taken, or there is nothing to change: the call simply did less.
  }
}

/** Everything git would see: each entry's identity, and each `.gitmodules`'s bytes. */
function seen(snapshot: Awaited<ReturnType<RepositoryGuard['snapshot']>>) {
  return {
    repositories: [...snapshot.repositories].sort(),
    gitmodules: [...snapshot.gitmodules]
      .map(([path, state]) => [path, state.kept?.bytes.toString('utf8') ?? state.identity])
      .sort(),
  };
}

describe('RepositoryGuard', () => {
  it('after undo, git sees exactly what it saw before the call, whatever the call did', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (actions) => {
        const root = join(scratch, `tree-${run++}`);
        for (const folder of FOLDERS) mkdirSync(join(root, folder), { recursive: true });
        execFileSync('git', ['init', '-q', join(root, 'a')]);
        writeFileSync(join(root, '.gitmodules'), '[submodule "kept"]\n');
        writeFileSync(join(root, 'c', '.gitmodules'), '[submodule "c"]\n');
        const guard = new RepositoryGuard([root]);
        const before = await guard.snapshot();
        for (const action of actions) apply(root, action);
        const changes = await guard.undo(before);
        expect(changes.every((change) => change.undone)).toBe(true);
        expect(seen(await guard.snapshot())).toEqual(seen(before));
        expect(readFileSync(join(root, '.gitmodules'), 'utf8')).toBe('[submodule "kept"]\n');
      }),
      {
        numRuns: 40,
        // Found by a run (seed 1281903684): a `.git` link, then a `.git` file naming a git directory below a file;
        // reading its `core.hooksPath` threw ENOTDIR.
        examples: [
          [
            [
              { kind: 'git-link', at: '.', name: 'x' },
              { kind: 'git-file', at: '.', name: 'x' },
            ],
          ],
        ],
      },
    );
  });

  it('reports nothing when the call left git alone', async () => {
    const root = join(scratch, 'quiet');
    mkdirSync(join(root, 'src'), { recursive: true });
    execFileSync('git', ['init', '-q', root]);
    const guard = new RepositoryGuard([root]);
    const before = await guard.snapshot();
    writeFileSync(join(root, 'src', 'index.ts'), 'export {};\n');
    mkdirSync(join(root, 'src', 'deep', 'er'), { recursive: true });
    expect(await guard.undo(before)).toEqual([]);
  });
});
