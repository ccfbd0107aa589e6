import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './helpers/built-cli.js';
import { runCliSync } from './helpers/run-cli-sync.js';

let cli: string;
let home: string;
beforeAll(() => {
  cli = builtCli();
  home = mkdtempSync(join(tmpdir(), 'scratchpad-cli-version-'));
}, 120_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('scratchpad --version', () => {
  it("prints package.json's version, alone or after other options", () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    for (const args of [['--version'], ['-V'], ['--json', '--version'], ['--db', join(home, 'x.db'), '-V']]) {
      const result = runCliSync(cli, home, args);
      expect(result, args.join(' ')).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });
});
