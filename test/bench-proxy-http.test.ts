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

describe('npm run bench:proxy-http', () => {
  it('times each tool directly, through the SDK forwarder and through the proxy, and writes every figure', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'bench-proxy-http-'));
    try {
      const output = join(directory, 'proxy-http.json');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['bench/proxy-http.js', '--rounds', '6', '--json', output],
        { cwd: root, timeout: 120_000 },
      );
      expect(stdout).toContain('6 rounds per tool');
      const report = JSON.parse(readFileSync(output, 'utf8'));
      expect(report.rounds).toBe(6);
      expect(Object.keys(report.results)).toEqual(['test_simple_text', 'test_multiple_content_types']);
      for (const figures of Object.values<Record<string, number>>(report.results)) {
        for (const side of ['direct', 'forwarder', 'proxy'])
          expect(figures[`${side}MedianMs`]).toBeGreaterThan(0);
        for (const key of ['forwarderAddedMedianMs', 'proxyAddedMedianMs', 'proxyAddedP95Ms'])
          expect(Number.isFinite(figures[key])).toBe(true);
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses a round count that is not a whole number above 0', async () => {
    await expect(
      promisify(execFile)(process.execPath, ['bench/proxy-http.js', '--rounds', '0'], {
        cwd: root,
        timeout: 30_000,
      }),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining('--rounds takes a whole number above 0, not 0'),
    });
  });
});
