import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DirectoryIndex } from './directory-index.js';

const scratch = mkdtempSync(join(tmpdir(), 'scratchpad-index-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const FOLDERS = ['a', 'a/b', 'a/b/c', 'd', 'd/e', 'f'];
const operation = fc.record({
  kind: fc.constantFrom(
    'mkdir',
    'git-folder',
    'git-file',
    'git-link',
    'gitmodules',
    'bare',
    'rename',
    'remove',
  ),
  at: fc.constantFrom(...FOLDERS),
  to: fc.constantFrom(...FOLDERS),
  backdate: fc.boolean(),
});

function apply(root: string, step: OperationValue): void {
  const at = join(root, step.at);
  try {
    if (step.kind === 'mkdir') mkdirSync(at, { recursive: true });
    if (step.kind === 'git-folder') mkdirSync(join(at, '.git'), { recursive: true });
    if (step.kind === 'git-file') writeFileSync(join(at, '.git'), 'gitdir: /nowhere\n');
    if (step.kind === 'git-link') symlinkSync('/nowhere', join(at, '.git'));
    if (step.kind === 'gitmodules') writeFileSync(join(at, '.gitmodules'), '[submodule "x"]\n');
    if (step.kind === 'bare') {
      for (const name of ['objects', 'refs']) mkdirSync(join(at, 'repo.git', name), { recursive: true });
      writeFileSync(join(at, 'repo.git', 'HEAD'), 'ref: refs/heads/main\n');
    }
    if (step.kind === 'rename') renameSync(at, join(root, step.to, 'moved'));
    if (step.kind === 'remove') rmSync(at, { recursive: true });
    // An executor can date a folder back; only its ctime then tells that it changed.
    if (step.backdate) utimesSync(at, new Date(2001, 0, 1), new Date(2001, 0, 1));
  } catch {
    // Many random steps cannot apply (missing folder, name taken): the tree simply stays as it is.
  }
}

type OperationValue = { kind: string; at: string; to: string; backdate: boolean };

function fresh(root: string) {
  const index = new DirectoryIndex([root]);
  return index.refresh().then(() => ({
    entries: index.gitEntries().sort(),
    directories: index.gitDirectories().sort(),
  }));
}

describe('DirectoryIndex', () => {
  it('kept up to date through any changes, it finds what a fresh walk finds', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(operation, { maxLength: 6 }), { minLength: 1, maxLength: 5 }),
        async (batches) => {
          const root = join(scratch, `tree-${run++}`);
          for (const folder of FOLDERS) mkdirSync(join(root, folder), { recursive: true });
          // Trusting every ctime at once: the walk between two refreshes must rest on ctimes alone.
          const index = new DirectoryIndex([root], () => false, { unsettledMs: 0 });
          await index.refresh();
          for (const batch of batches) {
            for (const step of batch) apply(root, step);
            await index.refresh();
            const expected = await fresh(root);
            expect(index.gitEntries().sort()).toEqual(expected.entries);
            expect(index.gitDirectories().sort()).toEqual(expected.directories);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('takes names in any case, as git does on a case-insensitive filesystem', async () => {
    const root = join(scratch, 'cases');
    mkdirSync(join(root, 'a', '.Git'), { recursive: true });
    writeFileSync(join(root, 'a', '.GITMODULES'), '');
    mkdirSync(join(root, 'b', 'Objects'), { recursive: true });
    mkdirSync(join(root, 'b', 'REFS'), { recursive: true });
    writeFileSync(join(root, 'b', 'head'), '');
    const index = new DirectoryIndex([root]);
    await index.refresh();
    expect(index.gitEntries().sort()).toEqual(
      [join(root, 'a', '.GITMODULES'), join(root, 'a', '.Git')].sort(),
    );
    expect(index.gitDirectories()).toEqual([join(root, 'b')]);
  });

  it('does not descend into .git folders, bare git directories or skipped folders', async () => {
    const root = join(scratch, 'skips');
    mkdirSync(join(root, '.git', 'modules', 'x'), { recursive: true });
    writeFileSync(join(root, '.git', 'modules', 'x', '.gitmodules'), '');
    mkdirSync(join(root, 'hidden', 'inner'), { recursive: true });
    writeFileSync(join(root, 'hidden', 'inner', '.gitmodules'), '');
    mkdirSync(join(root, 'bare.git', 'objects'), { recursive: true });
    mkdirSync(join(root, 'bare.git', 'refs', 'sub'), { recursive: true });
    writeFileSync(join(root, 'bare.git', 'HEAD'), '');
    writeFileSync(join(root, 'bare.git', 'refs', 'sub', '.gitmodules'), '');
    const index = new DirectoryIndex([root], (path) => path === join(root, 'hidden'));
    await index.refresh();
    expect(index.gitEntries()).toEqual([join(root, '.git')]);
    expect(index.gitDirectories()).toEqual([join(root, 'bare.git')]);
  });
});
