import { describe, expect, it } from 'vitest';
import { bubblewrapArguments, type SandboxLayout } from './bubblewrap-arguments.js';

const layout: SandboxLayout = {
  privateFolders: ['/tmp', '/run'],
  privateFolderBytes: 1024,
  readOnly: ['/tmp/home'],
  writable: ['/tmp/home/work'],
  readOnlyInsideWritable: ['/tmp/home/work/.git/hooks'],
  hiddenDirectories: ['/tmp/home/.ssh'],
  hiddenFiles: ['/etc/shadow'],
  stagingDir: '/stage',
  cwd: '/tmp/home/work',
  network: false,
  argv: ['/usr/bin/node', '/run/scratchpad/executor/index.mjs'],
};

describe('bubblewrapArguments', () => {
  it('mounts read-only, then private folders, then binds parents first, then hides, then the staging folder', () => {
    const args = bubblewrapArguments(layout, { disableUserNamespaces: true, tmpfsSize: true });
    const at = (...sequence: string[]) => {
      const index = args.findIndex((_, start) =>
        sequence.every((word, offset) => args[start + offset] === word),
      );
      expect(index, sequence.join(' ')).toBeGreaterThanOrEqual(0);
      return index;
    };
    const order = [
      at('--ro-bind', '/', '/'),
      at('--size', '1024', '--tmpfs', '/tmp'),
      at('--ro-bind', '/tmp/home', '/tmp/home'),
      at('--bind', '/tmp/home/work', '/tmp/home/work'),
      at('--ro-bind', '/tmp/home/work/.git/hooks', '/tmp/home/work/.git/hooks'),
      at('--tmpfs', '/tmp/home/.ssh', '--remount-ro', '/tmp/home/.ssh'),
      at('--ro-bind', '/dev/null', '/etc/shadow'),
      at('--ro-bind', '/stage', '/run/scratchpad'),
      at('--unshare-all', '--unshare-user'),
      at('--disable-userns', '--cap-drop', 'ALL', '--die-with-parent', '--new-session'),
      at('--chdir', '/tmp/home/work', '--', '/usr/bin/node', '/run/scratchpad/executor/index.mjs'),
    ];
    expect([...order].sort((left, right) => left - right)).toEqual(order);
    expect(args).not.toContain('--share-net');
  });

  it('shares the network only when granted and leaves out flags an old bubblewrap lacks', () => {
    const args = bubblewrapArguments(
      { ...layout, network: true },
      { disableUserNamespaces: false, tmpfsSize: false },
    );
    expect(args).toContain('--share-net');
    expect(args).not.toContain('--disable-userns');
    expect(args).not.toContain('--size');
  });
});
