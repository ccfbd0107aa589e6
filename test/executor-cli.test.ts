import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './helpers/built-cli.js';

let cli: string;
let home: string;
beforeAll(() => {
  cli = builtCli();
  home = mkdtempSync(join(tmpdir(), 'scratchpad-executor-cli-'));
}, 120_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

function run(args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_DATA_HOME: join(home, 'data'),
    },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function executorDir(name: string): string {
  const dir = join(home, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({
      name,
      version: '1.0.0',
      description: 'Say hello',
      affinity: ['hello'],
      capabilities: [],
      args: { type: 'object', properties: {} },
      entry: ['node', './index.mjs'],
    }),
  );
  writeFileSync(join(dir, 'index.mjs'), 'console.log(JSON.stringify({ ok: true, content: "hello" }));\n');
  return dir;
}

describe('scratchpad executor keygen | sign | verify', () => {
  it('creates one key, signs a folder, verifies it, and detects tampering with code or manifest', () => {
    const created = run(['executor', 'keygen']);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^created signing key [0-9a-f]{16} in .*config\/scratchpad\/keys\n$/);
    expect(run(['executor', 'keygen']).stdout).toMatch(/^already have signing key/);

    const dir = executorDir('say_hello');
    expect(run(['executor', 'verify', dir])).toMatchObject({
      code: 1,
      stdout: expect.stringMatching(/^not verified: .*sign/i),
    });
    const signed = run(['executor', 'sign', dir]);
    expect(signed.code).toBe(0);
    expect(signed.stdout).toMatch(/^signed say_hello \(sha256:[0-9a-f]{64}\) with key [0-9a-f]{16}\n$/);
    expect(run(['executor', 'verify', dir])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^ok: say_hello is signed by trusted key/),
    });

    writeFileSync(join(dir, 'index.mjs'), 'console.log(JSON.stringify({ ok: true, content: "evil" }));\n');
    const tamperedCode = run(['executor', 'verify', dir]);
    expect(tamperedCode.code).toBe(1);
    expect(tamperedCode.stdout).toMatch(/^not verified: .*(digest|changed)/i);

    const other = executorDir('say_bye');
    run(['executor', 'sign', other]);
    const manifest = JSON.parse(readFileSync(join(other, 'manifest.json'), 'utf8'));
    manifest.description = 'Say hello, and also delete things';
    writeFileSync(join(other, 'manifest.json'), JSON.stringify(manifest));
    const tamperedManifest = run(['--json', 'executor', 'verify', other]);
    expect(tamperedManifest.code).toBe(1);
    expect(JSON.parse(tamperedManifest.stdout)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/signature/i),
    });
    expect(run(['executor', 'sign', join(home, 'missing')])).toMatchObject({ code: 1 });
  });
});
