import { execFile } from 'node:child_process';
import type { BubblewrapFeatures } from './bubblewrap-arguments.js';

/** Default location of the bubblewrap binary. */
export const DEFAULT_BUBBLEWRAP_PATH = '/usr/bin/bwrap';
/** How long the probe may take before bubblewrap counts as unusable. */
const PROBE_TIMEOUT_MS = 10_000;

/** Result of {@link probeBubblewrap}: usable with these features, or why not (with what to do). */
export type BubblewrapProbe =
  | { ok: true; version: string; features: BubblewrapFeatures }
  | { ok: false; reason: string };

/** What to install, for messages. */
export const INSTALL_BUBBLEWRAP =
  'Install bubblewrap (Debian/Ubuntu: `apt-get install bubblewrap`; Fedora: `dnf install bubblewrap`; Arch: ' +
  '`pacman -S bubblewrap`), or run without a sandbox on purpose with `scratchpad run --no-sandbox` ' +
  '(or `enabled = false` in [runtime.sandbox])';

/**
 * Checks that bubblewrap at `path` exists and can create the namespaces a sandbox needs, by running `/bin/sh -c :`
 * in one with every namespace unshared and all capabilities dropped; reads the flags its `--help` lists. Never
 * throws: a missing binary, a kernel that forbids user namespaces or a broken install is a reason that says what
 * to do.
 */
export async function probeBubblewrap(path: string = DEFAULT_BUBBLEWRAP_PATH): Promise<BubblewrapProbe> {
  const help = await run(path, ['--help']);
  if (help.error?.code === 'ENOENT' || help.error?.code === 'EACCES') {
    return {
      ok: false,
      reason: `No sandbox: bubblewrap is not installed at ${path}. ${INSTALL_BUBBLEWRAP}.`,
    };
  }
  const text = `${help.stdout}${help.stderr}`;
  const features: BubblewrapFeatures = {
    disableUserNamespaces: text.includes('--disable-userns'),
    tmpfsSize: /--size\b/.test(text),
  };
  const version = (await run(path, ['--version'])).stdout.trim().replace(/^bubblewrap\s*/, '') || 'unknown';
  const trial = await run(path, [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--unshare-all',
    '--unshare-user',
    ...(features.disableUserNamespaces ? ['--disable-userns'] : []),
    '--cap-drop',
    'ALL',
    '--die-with-parent',
    '--',
    '/bin/sh',
    '-c',
    ':',
  ]);
  if (trial.error) {
    const detail = trial.stderr.trim() || trial.error.message;
    return {
      ok: false,
      reason:
        `No sandbox: bubblewrap ${version} at ${path} cannot create a sandbox here (${detail}). The kernel may ` +
        'forbid unprivileged user namespaces (check `sysctl kernel.unprivileged_userns_clone` and ' +
        '`kernel.apparmor_restrict_unprivileged_userns`), or a container may block them. Fix that, or run ' +
        'without a sandbox on purpose with `scratchpad run --no-sandbox`.',
    };
  }
  return { ok: true, version, features };
}

interface ProbeRun {
  stdout: string;
  stderr: string;
  error: (Error & { code?: string | number }) | null;
}

function run(command: string, args: string[]): Promise<ProbeRun> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { timeout: PROBE_TIMEOUT_MS, env: { PATH: '/usr/bin:/bin' }, encoding: 'utf8' },
      (error, stdout, stderr) => resolve({ stdout, stderr, error: error as ProbeRun['error'] }),
    );
  });
}
