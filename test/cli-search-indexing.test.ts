import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './helpers/built-cli.js';
import { runCliSync, type SyncRun } from './helpers/run-cli-sync.js';

let cli: string;
let home: string;
beforeAll(() => {
  cli = builtCli();
  home = mkdtempSync(join(tmpdir(), 'scratchpad-cli-search-'));
}, 120_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

const db = () => join(home, 'search.db');

function run(args: string[]): SyncRun {
  return runCliSync(cli, home, ['--db', db(), ...args]);
}

/** A log of about `megabytes` MB on disk with `needle` on one line in its middle. */
function logFile(name: string, megabytes: number, needle: string): string {
  const line = (n: number) => `${n} worker-${n % 7} handled request ${n * 31} in ${n % 97} ms\n`;
  const half = Array.from({ length: Math.round((megabytes * 1e6) / 2 / 48) }, (_, n) => line(n)).join('');
  const path = join(home, name);
  writeFileSync(path, `${half}the ${needle} is here\n${half}`);
  return path;
}

describe('scratchpad search from the CLI', () => {
  it('indexes what is pending before it answers; --partial answers from the indexed part', () => {
    expect(run(['write', 'big', logFile('big.log', 30, 'zyzzyva')]).code).toBe(0);
    const partial = run(['search', 'zyzzyva', '--partial']);
    expect(partial.code).toBe(0);
    expect(partial.stdout).toMatch(
      /^no entry mentions "zyzzyva"\nStill indexing this session for search \(\d+%: [\d.]+ [kM]B of 3\d\.\d MB\); these results come from the indexed part, search again later for the rest\.\n$/,
    );
    const whole = run(['search', 'zyzzyva']);
    expect(whole).toMatchObject({ code: 0, stderr: '' });
    expect(whole.stdout).toMatch(/^big\t.*\[zyzzyva\].*\n$/);
    // Indexed now, --partial is whole too.
    expect(run(['search', 'zyzzyva', '--partial']).stdout).toBe(whole.stdout);
  }, 180_000);

  it('stops at Ctrl-C while indexing, and the next search goes on from there', async () => {
    expect(run(['--session', 'other', 'write', 'big', logFile('other.log', 60, 'quokka')]).code).toBe(0);
    const child = spawn(process.execPath, [cli, '--db', db(), '--session', 'other', 'search', 'quokka'], {
      env: { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: join(home, 'data') },
      stdio: 'ignore',
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>(
      (resolve) => child.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const interrupted = Date.now();
    child.kill('SIGINT');
    const { signal, at } = await exited;
    expect(signal).toBe('SIGINT');
    expect(at - interrupted).toBeLessThan(1_000);
    // It was stopped mid-way: the index is not whole yet, and a search finishes it.
    expect(run(['--session', 'other', 'search', 'quokka', '--partial']).stdout).toMatch(/Still indexing/);
    expect(run(['--session', 'other', 'search', 'quokka']).stdout).toMatch(/^big\t.*\[quokka\].*\n$/);
  }, 180_000);
});
