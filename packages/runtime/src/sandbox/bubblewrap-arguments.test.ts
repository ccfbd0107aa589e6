import { describe, expect, it } from 'vitest';
import { bubblewrapArguments, type SandboxLayout } from './bubblewrap-arguments.js';

const layout: SandboxLayout = {
  runFolder: { folder: '/run', shown: ['/run/lock'], links: [{ path: '/run/shm', target: '/dev/shm' }] },
  temporaryBytes: 1024,
  readOnly: ['/tmp/home'],
  writable: ['/tmp/home/work'],
  pinned: ['/tmp/home/work/sub'],
  readOnlyInsideWritable: ['/tmp/home/work/sub/.git'],
  hiddenDirectories: ['/tmp/home/.ssh'],
  hiddenFiles: ['/etc/shadow'],
  stagingDir: '/stage',
  temporaryFolder: '/run/scratchpad/tmp',
  seccompFd: 3,
  cwd: '/tmp/home/work',
  network: false,
  argv: ['/usr/bin/node', '/run/scratchpad/executor/index.mjs'],
};

describe('bubblewrapArguments', () => {
  it('mounts read-only, rebuilds /run, binds parents first (pinned folders before the git metadata in them), hides, then the staging folder and temporary space', () => {
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
      at('--tmpfs', '/run'),
      at('--ro-bind-try', '/run/lock', '/run/lock'),
      at('--symlink', '/dev/shm', '/run/shm'),
      at('--ro-bind', '/tmp/home', '/tmp/home'),
      at('--bind', '/tmp/home/work', '/tmp/home/work'),
      at('--bind', '/tmp/home/work/sub', '/tmp/home/work/sub'),
      at('--ro-bind', '/tmp/home/work/sub/.git', '/tmp/home/work/sub/.git'),
      at('--tmpfs', '/tmp/home/.ssh', '--remount-ro', '/tmp/home/.ssh'),
      at('--ro-bind', '/dev/null', '/etc/shadow'),
      at('--ro-bind', '/stage', '/run/scratchpad'),
      at('--remount-ro', '/run', '--remount-ro', '/dev'),
      at('--size', '1024', '--tmpfs', '/dev/shm'),
      at('--size', '1024', '--tmpfs', '/run/scratchpad/tmp'),
      at('--unshare-all', '--unshare-user'),
      at('--seccomp', '3'),
      at('--disable-userns', '--cap-drop', 'ALL', '--die-with-parent', '--new-session'),
      at('--chdir', '/tmp/home/work', '--', '/usr/bin/node', '/run/scratchpad/executor/index.mjs'),
    ];
    expect([...order].sort((left, right) => left - right)).toEqual(order);
    expect(args).not.toContain('--share-net');
    expect(args).not.toContain('/tmp');
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
