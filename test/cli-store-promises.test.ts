import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './helpers/built-cli.js';
import { runCliSync } from './helpers/run-cli-sync.js';

let cli: string;
let home: string;
beforeAll(() => {
  cli = builtCli();
  home = mkdtempSync(join(tmpdir(), 'scratchpad-cli-promises-'));
}, 120_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

const run = (args: string[], input?: string, env?: Record<string, string>) =>
  runCliSync(cli, home, args, input, env);

describe('the CLI keeps the store promises', () => {
  it('--ttl takes whole seconds up to 100 years; a bad one stores nothing and list keeps working', () => {
    for (const ttl of ['1.0001', '1e13', '0', '-5', '3155760001', 'soon']) {
      const written = run(['write', 'ttl-bad', '--ttl', ttl], 'x');
      expect(written.code).toBe(2);
      expect(written.stderr).toContain('whole seconds from 1 to 3155760000 (100 years)');
    }
    expect(run(['write', 'ttl-max', '--ttl', '3155760000'], 'x').code).toBe(0);
    const listed = run(['list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('ttl-max');
    expect(listed.stdout).not.toContain('ttl-bad');
  });

  it('an expired name is written again at once', async () => {
    expect(run(['write', 'short', '--ttl', '1'], 'x').code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    const again = run(['write', 'short'], 'y');
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(again.stdout).toMatch(/^created short/);
    expect(run(['read', 'short']).stdout).toBe('y');
  });
});
