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
      // Every request of a turn is counted: the step's and the final answer's.
      for (const row of report.rows) expect(row.modelCalls).toBeGreaterThanOrEqual(2);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 180_000);

  it("runs the LRO paper's kinds beside the needles — ID lookup, filter, aggregation — and scores them per arm", async () => {
    const directory = mkdtempSync(join(tmpdir(), 'bench-live-lro-'));
    try {
      const output = join(directory, 'live.json');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['bench/live.js', '--fake', '--tasks', '7', '--json', output],
        { cwd: root, timeout: 120_000 },
      );
      expect(stdout).toContain('7 tasks');
      expect(stdout).toContain('4 needle, 1 lookup, 1 filter, 1 aggregate');
      expect(stdout).toMatch(/^arm +success +needle +lookup +filter +aggregate /m);
      expect(stdout).toContain('the figures check the harness, not a model');
      const report = JSON.parse(readFileSync(output, 'utf8'));
      type Row = { arm: string; family: string; success: boolean; expected: string; answer: string };
      const rows: Row[] = report.rows;
      expect(rows).toHaveLength(21);
      const lro = rows.filter((row) => row.family !== 'needle');
      expect(lro.map((row) => `${row.arm} ${row.family}`).sort()).toEqual(
        ['scratchpad', 'truncate', 'inline']
          .flatMap((arm) => ['lookup', 'filter', 'aggregate'].map((family) => `${arm} ${family}`))
          .sort(),
      );
      // The answers are computed from the generated data.
      const expected = (family: string) => lro.find((row) => row.family === family)?.expected ?? '';
      expect(expected('lookup')).toMatch(/^usr-\d{6}, usr-\d{6}, usr-\d{6}$/);
      expect(expected('filter')).toMatch(/^ORD-\d{6}(, ORD-\d{6}){4,7}$/);
      expect(expected('aggregate')).toMatch(/^\d+$/);
      const outcome = (arm: string) =>
        Object.fromEntries(lro.filter((row) => row.arm === arm).map((row) => [row.family, row.success]));
      // The fake reader greps the stored output: every record is within its reach.
      expect(outcome('scratchpad')).toEqual({ lookup: true, filter: true, aggregate: true });
      // Head and tail of the same size never hold every matching record (they sit between 10% and 90%, or one in
      // the middle, or 40 or more spread over 6,000 lines).
      expect(outcome('truncate')).toEqual({ lookup: false, filter: false, aggregate: false });
      // The whole output inline holds them all (for this reader; a real model's attention is what the bench measures).
      expect(outcome('inline')).toEqual({ lookup: true, filter: true, aggregate: true });
      const scratchpadFilter = lro.find((row) => row.arm === 'scratchpad' && row.family === 'filter') as Row;
      for (const id of scratchpadFilter.expected.split(', ')) expect(scratchpadFilter.answer).toContain(id);
      const arms = Object.fromEntries(report.arms.map((arm: Record<string, string>) => [arm.arm, arm]));
      expect(arms.scratchpad).toMatchObject({ lookup: '100%', filter: '100%', aggregate: '100%' });
      expect(arms.truncate).toMatchObject({ lookup: '0%', filter: '0%', aggregate: '0%' });
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 180_000);
});
