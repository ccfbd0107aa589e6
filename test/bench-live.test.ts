import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './helpers/built-cli.js';

const root = fileURLToPath(new URL('../', import.meta.url));

beforeAll(() => {
  builtCli();
}, 120_000);

describe('npm run bench:live', () => {
  it('runs end to end through --base-url against a fake OpenAI-compatible server: three arms, every task', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'bench-live-'));
    try {
      const output = join(directory, 'live.json');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['bench/live.js', '--fake', '--tasks', '8', '--json', output],
        { cwd: root, timeout: 120_000 },
      );
      expect(stdout).toMatch(
        /Live evaluation: 8 tasks \(fake reader model at http:\/\/127\.0\.0\.1:\d+\/v1\)/,
      );
      const report = JSON.parse(readFileSync(output, 'utf8'));
      expect(report.rows).toHaveLength(24);
      expect(report.baseURL).toBe('fake');
      expect(report.arms.map((arm: { arm: string }) => arm.arm)).toEqual([
        'scratchpad',
        'truncate',
        'inline',
      ]);
      const scratchpad = report.rows.filter((row: { arm: string }) => row.arm === 'scratchpad');
      // The fake reader only answers from what it was shown: with the scratchpad it can always go and read the fact.
      expect(scratchpad.every((row: { success: boolean }) => row.success)).toBe(true);
      expect(scratchpad.every((row: { offloaded: boolean }) => row.offloaded)).toBe(true);
      const middle = report.rows.filter(
        (row: { arm: string; position: string }) => row.arm === 'truncate' && row.position === 'middle',
      );
      expect(middle.length).toBeGreaterThan(0);
      expect(middle.some((row: { success: boolean }) => row.success)).toBe(false);
      // Inline shows the whole output: the fake reader finds the log's planted line wherever it is.
      const inlineLogs = report.rows.filter(
        (row: { arm: string; kind: string }) => row.arm === 'inline' && row.kind === 'log',
      );
      expect(inlineLogs.length).toBeGreaterThan(0);
      expect(inlineLogs.every((row: { success: boolean }) => row.success)).toBe(true);
      for (const row of report.rows) expect(row.inputTokens).toBeGreaterThan(0);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 180_000);
});
