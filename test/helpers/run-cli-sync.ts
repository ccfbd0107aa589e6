import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** What one CLI run printed and how it exited. */
export interface SyncRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout as bytes (binary output). */
  raw: Buffer;
}

/** Runs the built CLI with `home` as HOME and XDG folders under it, plus `env`. */
export function runCliSync(
  cli: string,
  home: string,
  args: string[],
  input?: string | Buffer,
  env: Record<string, string> = {},
): SyncRun {
  const result = spawnSync(process.execPath, [cli, ...args], {
    input,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      XDG_DATA_HOME: join(home, 'data'),
      XDG_CONFIG_HOME: join(home, 'config'),
      ...env,
    },
    maxBuffer: 256 * 1024 * 1024,
    timeout: 60_000,
  });
  return {
    code: result.status,
    stdout: result.stdout.toString('utf8'),
    stderr: result.stderr.toString('utf8'),
    raw: result.stdout,
  };
}
