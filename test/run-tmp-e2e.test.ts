import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeRequest } from '../src/testing/fake-servers/index.js';
import { startFakeOllama } from '../src/testing/fake-servers/index.js';
import { builtCli } from './helpers/built-cli.js';
import { runCliAsync } from './helpers/run-cli-async.js';
import { lastToolResult } from './helpers/run-home.js';

// Issue 26: the example turns of seed 000 («read the file /tmp/big_log.txt and tell me the errors») and seed 002
// («download … and save it in /tmp/out.txt») run from a project folder with the default sandbox. The home lives
// outside /tmp (as a real one does), so that /tmp can be granted as a write root.
let cli: string;
let home: string;
let project: string;
let files: string;
let download: Server;
let downloadUrl: string;
const errors = ['ERROR disk /dev/vdb1 is 97% full', 'ERROR payment-service timeout after 30s'];
const body = JSON.stringify({ url: 'https://httpbin.org/get', origin: '203.0.113.7' });

beforeAll(async () => {
  cli = builtCli();
  home = mkdtempSync('/var/tmp/scratchpad-tmp-e2e-');
  project = join(home, 'project');
  mkdirSync(project, { recursive: true });
  files = mkdtempSync('/tmp/scratchpad-seed-files-');
  const lines = Array.from({ length: 4000 }, (_, index) => `2026-04-26 INFO event ${index} handled`);
  lines.splice(1000, 0, `2026-04-26 ${errors[0]}`);
  lines.splice(3000, 0, `2026-04-26 ${errors[1]}`);
  writeFileSync(join(files, 'big_log.txt'), `${lines.join('\n')}\n`);
  download = createServer((_request, response) => response.end(body));
  await new Promise<void>((resolve) => download.listen(0, '127.0.0.1', resolve));
  downloadUrl = `http://127.0.0.1:${(download.address() as AddressInfo).port}/get`;
  // The download is served on this machine: web_fetch reaches it only when the user allows it.
  mkdirSync(join(home, 'config', 'scratchpad'), { recursive: true });
  writeFileSync(
    join(home, 'config', 'scratchpad', 'config.toml'),
    '[runtime.sandbox]\nlocal_network = ["web_fetch"]\n',
  );
}, 180_000);

afterAll(async () => {
  await new Promise((resolve) => download.close(resolve));
  rmSync(home, { recursive: true, force: true });
  rmSync(files, { recursive: true, force: true });
});

function run(query: string, script: Parameters<typeof startFakeOllama>[0], flags: string[] = []) {
  return startFakeOllama(script, { models: ['qwen3:8b'] }).then(async (server) => {
    try {
      const result = await runCliAsync(
        cli,
        ['--db', join(home, 'store.db'), 'run', query, '--quiet', '--provider', 'ollama', ...flags],
        {
          env: {
            PATH: process.env.PATH ?? '',
            HOME: home,
            XDG_DATA_HOME: join(home, 'data'),
            XDG_CONFIG_HOME: join(home, 'config'),
            OLLAMA_HOST: server.url,
          },
          cwd: project,
        },
      );
      return { ...result, remaining: server.remaining };
    } finally {
      await server.close();
    }
  });
}

/** Seed 002's turn: web_fetch, then fs_write of "{{step1.content}}" to /tmp/…/out.txt, then the answer. */
function downloadAndSave(target: string, seen: { saved?: string }) {
  return [
    () => ({ toolCalls: [{ name: 'web_fetch', arguments: { url: downloadUrl } }] }),
    () => ({ toolCalls: [{ name: 'fs_write', arguments: { path: target, content: '{{step1.content}}' } }] }),
    (request: FakeRequest) => {
      seen.saved = lastToolResult(request);
      return seen.saved.includes('WRITE_REFUSED') ? 'I could not save it.' : `I saved it to ${target}.`;
    },
  ];
}

describe('seed turns with their files in /tmp, from a project folder, sandboxed (issue 26)', () => {
  it('seed 000: reads /tmp/…/big_log.txt and finds the errors', async () => {
    const path = join(files, 'big_log.txt');
    const seen: { read?: string; grep?: string } = {};
    const result = await run(`read the file ${path} and tell me the errors`, [
      () => ({ toolCalls: [{ name: 'fs_read', arguments: { path } }] }),
      (request: FakeRequest) => {
        seen.read = lastToolResult(request);
        const name = /"name": "([^"]+)"/.exec(seen.read)?.[1] ?? /saved as "([^"]+)"/.exec(seen.read)?.[1];
        return { toolCalls: [{ name: 'scratchpad_read', arguments: { name, regex: 'ERROR' } }] };
      },
      (request: FakeRequest) => {
        seen.grep = lastToolResult(request);
        return `Errors: ${errors.filter((error) => seen.grep?.includes(error)).join('; ')}`;
      },
    ]);
    expect(seen.read).not.toMatch(/no such file or directory/);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`Errors: ${errors.join('; ')}\n`);
    expect(result.remaining).toBe(0);
  });

  it('seed 002: the write to /tmp/out.txt is refused with WRITE_REFUSED when /tmp is not a write root, and nothing is claimed', async () => {
    const target = join(files, 'refused', 'out.txt');
    const seen: { saved?: string } = {};
    const result = await run(
      `download ${downloadUrl} and save it in ${target}`,
      downloadAndSave(target, seen),
    );
    expect(result.code).toBe(0);
    expect(seen.saved).toMatch(/WRITE_REFUSED: read-only file system/);
    expect(seen.saved).toContain(project);
    expect(seen.saved).toContain('--write-root PATH');
    expect(seen.saved).not.toMatch(/wrote \d+ bytes/);
    expect(result.stdout).toBe('I could not save it.\n');
    expect(existsSync(target)).toBe(false);
  });

  it('seed 002: the write lands in /tmp when `--write-root /tmp` grants it', async () => {
    const target = join(files, 'out.txt');
    const seen: { saved?: string } = {};
    const result = await run(
      `download ${downloadUrl} and save it in ${target}`,
      downloadAndSave(target, seen),
      ['--write-root', '/tmp'],
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(seen.saved).toContain(`wrote ${Buffer.byteLength(body)} bytes to ${target}`);
    expect(result.stdout).toBe(`I saved it to ${target}.\n`);
    expect(readFileSync(target, 'utf8')).toBe(body);
  });
});
