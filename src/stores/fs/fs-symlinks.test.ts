import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createScratchpad, type Scratchpad } from '../../service/scratchpad.js';
import { expectCode } from '../../testing/expect-code.js';
import { createFsDriver } from './index.js';

/**
 * The fs store's own bookkeeping directories replaced by symbolic links to a directory outside the root: every
 * operation that would read, write or delete through them refuses with `STORE_CORRUPT` naming the path, and the
 * files outside survive `gc`, `delete` and `sessions delete`.
 */
describe('fs store: symbolic links in the bookkeeping', () => {
  let parent: string;
  let root: string;
  let outside: string;
  let pad: Scratchpad;

  beforeEach(async () => {
    parent = await mkdtemp(join(tmpdir(), 'scratchpad-fs-links-'));
    root = join(parent, 'store');
    outside = join(parent, 'outside');
    await mkdir(outside);
    pad = createScratchpad({ driver: createFsDriver({ root }) });
    await pad.write('s1', 'doc', 'kept content');
  });
  afterEach(async () => {
    await pad.close();
    await rm(parent, { recursive: true, force: true });
  });

  /** Puts an old file outside the root (old enough for any sweep) and links `path` to that directory. */
  const linkToOutside = async (path: string): Promise<string> => {
    const victim = join(outside, '0123456789abcdef01234567');
    await writeFile(victim, 'not yours');
    const old = new Date(Date.now() - 7 * 24 * 3600 * 1000);
    await utimes(victim, old, old);
    await rename(path, `${path}.moved`);
    await symlink(outside, path);
    return victim;
  };

  for (const [label, parts] of [
    ['the store trash', ['.scratchpad', 'trash']],
    ['the store staging', ['.scratchpad', 'staging']],
    ['the store tmp', ['.scratchpad', 'tmp']],
    ['the store ids', ['.scratchpad', 'ids']],
    ['a session content directory', ['s1', '.scratchpad', 'content']],
    ['a session tmp directory', ['s1', '.scratchpad', 'tmp']],
  ] as const) {
    it(`gc refuses and deletes nothing when ${label} is a symbolic link`, async () => {
      const linked = join(root, ...parts);
      await mkdir(linked, { recursive: true });
      const victim = await linkToOutside(linked);
      const error = await expectCode(pad.gc(), 'STORE_CORRUPT');
      expect(error.message).toContain(linked);
      expect(error.message).toContain('symbolic link');
      expect(existsSync(victim)).toBe(true);
      expect(await readdir(outside)).toEqual(['0123456789abcdef01234567']);
    });
  }

  it('deleting a session whose hidden directory is a link to outside deletes nothing there', async () => {
    const hidden = join(root, 's1', '.scratchpad');
    await rename(hidden, join(parent, 'hidden-moved'));
    await writeFile(join(outside, 'precious'), 'not yours');
    await symlink(outside, hidden);
    await expectCode(pad.deleteSession('s1'), 'STORE_CORRUPT');
    expect(existsSync(join(outside, 'precious'))).toBe(true);
  });

  it('a staging directory that is a link refuses writes instead of writing outside', async () => {
    await linkToOutside(join(root, '.scratchpad', 'staging'));
    await expectCode(pad.write('s1', 'new', 'x'), 'STORE_CORRUPT');
    expect(await readdir(outside)).toEqual(['0123456789abcdef01234567']);
  });

  it('with the link removed, the store works again', async () => {
    const linked = join(root, '.scratchpad', 'trash');
    await linkToOutside(linked);
    await expectCode(pad.gc(), 'STORE_CORRUPT');
    await rm(linked);
    await pad.gc();
    expect((await pad.read('s1', 'doc')).content).toBe('kept content');
  });
});
