import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './helpers/built-cli.js';
import { runCliSync, type SyncRun } from './helpers/run-cli-sync.js';

let cli: string;
let home: string;
let counter = 0;
beforeAll(() => {
  cli = builtCli();
  home = mkdtempSync(join(tmpdir(), 'scratchpad-cli-config-'));
}, 120_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** A fresh HOME whose config.toml is `toml`, and a runner for the CLI in it. */
function withConfig(toml: string): (args: string[], input?: string, env?: Record<string, string>) => SyncRun {
  const userHome = join(home, `case-${++counter}`);
  mkdirSync(join(userHome, 'config', 'scratchpad'), { recursive: true });
  writeFileSync(join(userHome, 'config', 'scratchpad', 'config.toml'), toml);
  return (args, input, env = {}) => runCliSync(cli, userHome, args, input, env);
}

describe('config.toml [store] defaults', () => {
  it('sets the session, a default TTL and the size cap; a flag wins over the environment, which wins over them', () => {
    const run = withConfig(
      '[store]\nsession = "work"\ndefault_ttl_seconds = 3600\nmax_store_bytes = 1000\nmax_session_bytes = 600\n',
    );
    expect(run(['write', 'plan'], 'from config').code).toBe(0);
    const listed = JSON.parse(run(['--json', 'list']).stdout).entries as Array<{
      name: string;
      session: string;
      expiresAt: number | null;
      updatedAt: number;
    }>;
    expect(listed).toEqual([expect.objectContaining({ name: 'plan', session: 'work' })]);
    expect((listed[0]?.expiresAt ?? 0) - (listed[0]?.updatedAt ?? 0)).toBe(3_600_000);
    // --ttl wins over default_ttl_seconds.
    run(['write', 'longer', '--ttl', '7200'], 'x');
    const longer = JSON.parse(run(['--json', 'list']).stdout).entries.find(
      (entry: { name: string }) => entry.name === 'longer',
    );
    expect(longer.expiresAt - longer.updatedAt).toBe(7_200_000);
    // The environment wins over config, the flag over both.
    run(['write', 'env-note'], 'x', { SCRATCHPAD_SESSION: 'from-env' });
    run(['--session', 'from-flag', 'write', 'flag-note'], 'x', { SCRATCHPAD_SESSION: 'from-env' });
    const sessions = run(['--json', 'sessions']).stdout;
    expect(JSON.parse(sessions).map((session: { id: string }) => session.id)).toEqual([
      'from-env',
      'from-flag',
      'work',
    ]);
    // The caps: a session over 600 bytes, a store over 1,000.
    const sessionFull = run(['write', 'big'], 'y'.repeat(700));
    expect(sessionFull.code).toBe(1);
    expect(sessionFull.stderr).toContain('STORE_FULL');
    expect(run(['--session', 'a', 'write', 'half'], 'z'.repeat(500)).code).toBe(0);
    const storeFull = run(['--session', 'b', 'write', 'half'], 'z'.repeat(500));
    expect(storeFull.code).toBe(1);
    expect(storeFull.stderr).toContain('STORE_FULL');
  });

  it('a bad value is CONFIG_INVALID naming the file, the line and the key', () => {
    for (const [toml, key, line] of [
      ['[store]\nmax_store_bytes = "big"\n', 'store.max_store_bytes', 2],
      ['# caps\n[store]\nsession = "../etc"\n', 'store.session', 3],
      ['[store]\ndefault_ttl_seconds = 1.5\n', 'store.default_ttl_seconds', 2],
      ['[store]\ndefault_ttl_seconds = 9000000000000\n', 'store.default_ttl_seconds', 2],
      ['[store]\nmax_bytes = 10\n', 'store.max_bytes', 2],
    ] as const) {
      const run = withConfig(toml);
      const failed = run(['--json', 'list']);
      expect(failed.code, toml).toBe(1);
      const { error } = JSON.parse(failed.stderr) as { error: { code: string; message: string } };
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toMatch(new RegExp(`config\\.toml:${line}: `));
      expect(error.message).toContain(key.split('.')[1]);
    }
  });
});
