import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeRequest } from '../src/testing/fake-servers/index.js';
import { createRunHome, lastToolResult, type RunHome } from './helpers/run-home.js';

// Issue 26: `fs_read` of a 45.6 MB file stored 8.0 MB, said so only inside the metadata JSON, and a later read of
// line 249,070 was answered from another entry. A whole file goes into the store whole; a bound that cuts says so
// on the first line; the turn log holds what the model read at every step.
const LINES = 500_000;
const WANTED = 249_070;
let home: RunHome;
let bigBytes = 0;

function lineText(number: number): string {
  return `2026-04-26T10:00:00Z INFO request ${number} served by worker ${number % 13} in ${number % 97} ms status=ok trace=abcdef012345\n`;
}

beforeAll(async () => {
  home = createRunHome('scratchpad-whole-');
  const out = createWriteStream(join(home.workdir, 'big.log'));
  let batch = '';
  for (let number = 1; number <= LINES; number++) {
    batch += lineText(number);
    if (batch.length > 1 << 20) {
      bigBytes += Buffer.byteLength(batch);
      if (!out.write(batch)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      batch = '';
    }
  }
  bigBytes += Buffer.byteLength(batch);
  await new Promise<void>((resolve) => out.end(batch, resolve));
}, 120_000);
afterAll(() => home.close());

interface LoggedStep {
  result: Record<string, unknown>;
}

function lastTurnRecord(): { steps: LoggedStep[] } {
  const turns = join(home.dataDir, 'turns');
  const [file] = readdirSync(turns).sort().reverse();
  return JSON.parse(
    readFileSync(join(turns, file as string), 'utf8')
      .trim()
      .split('\n')
      .at(-1) as string,
  );
}

describe('scratchpad run: whole files', () => {
  it('fs_read of a 45 MB file stores it whole; line 249,070 reads back from that entry; the log holds each observation', async () => {
    expect(bigBytes).toBeGreaterThan(45_000_000);
    const seen: { observation?: string; line?: string } = {};
    const server = await home.ollama([
      () => ({ toolCalls: [{ name: 'fs_read', arguments: { path: './big.log' } }] }),
      (request: FakeRequest) => {
        seen.observation = lastToolResult(request);
        const name = /stored as (\S+) \(/.exec(seen.observation)?.[1] ?? 'fs_read_1';
        return {
          toolCalls: [{ name: 'scratchpad_read', arguments: { name, lines: `${WANTED}:${WANTED}` } }],
        };
      },
      (request: FakeRequest) => {
        seen.line = lastToolResult(request);
        return 'Done.';
      },
    ]);
    const run = await home.cli(
      ['--db', join(home.root, 'big.db'), 'run', 'read ./big.log and show line 249070', '--quiet'],
      { OLLAMA_HOST: server.url },
    );
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('Done.\n');
    expect(seen.observation).toContain(`${LINES.toLocaleString('en-US')} lines`);
    expect(seen.observation).not.toContain('[cut:');
    expect(seen.observation).toContain(`"bytes_read":${bigBytes},"truncated":false`);
    expect(seen.line).toContain(lineText(WANTED).trim());

    const record = lastTurnRecord();
    const [read, line] = record.steps as [LoggedStep, LoggedStep];
    expect(read.result).toMatchObject({ ok: true, offloaded: true, bytes: bigBytes });
    expect(read.result.observation).toBe(seen.observation);
    // The step shown inline (the builtin read) is logged with the text the model read, not only its size.
    expect(line.result.observation).toBe(seen.line);
  }, 180_000);

  it('a cut at the configured bound is stated on the first line of the observation, with how to read on', async () => {
    const bound = 1_000_000;
    const config = home.config('bound', `[runtime]\nmax_stored_bytes = ${bound}\n`);
    const seen: { observation?: string; next?: string } = {};
    const server = await home.ollama([
      () => ({ toolCalls: [{ name: 'fs_read', arguments: { path: './big.log' } }] }),
      (request: FakeRequest) => {
        seen.observation = lastToolResult(request);
        // The model follows the notice: the call it names reads on (not refused as a re-read).
        const call = /to read on: fs_read (\{.*\})\]/.exec(seen.observation)?.[1] ?? '{}';
        return { toolCalls: [{ name: 'fs_read', arguments: JSON.parse(call) }] };
      },
      (request: FakeRequest) => {
        seen.next = lastToolResult(request);
        return 'Done.';
      },
    ]);
    const run = await home.cli(
      ['--db', join(home.root, 'bound.db'), 'run', 'read ./big.log', '--quiet', '--config', config],
      { OLLAMA_HOST: server.url },
    );
    expect(run.stderr).toBe('');
    const first = seen.observation?.split('\n')[0] ?? '';
    expect(first).toContain(`${bound.toLocaleString('en-US')} of ${bigBytes.toLocaleString('en-US')} bytes`);
    expect(first).toContain('"offset": ');
    expect(first).toContain('max_stored_bytes');
    expect(seen.next?.split('\n')[0]).toContain(
      `[cut: kept ${bound.toLocaleString('en-US')} of ${bigBytes.toLocaleString('en-US')} bytes from byte ${bound.toLocaleString('en-US')}`,
    );
    expect(seen.next).toContain('output stored as fs_read_2');
  }, 180_000);

  it('shell_exec output and web_fetch bodies follow the same rule: a cut by the bound is the first line', async () => {
    const bound = 200_000;
    // The page is served on this machine: web_fetch reaches it only when the user allows it.
    const config = home.config(
      'bound-small',
      `[runtime]\nmax_stored_bytes = ${bound}\n\n[runtime.sandbox]\nlocal_network = ["web_fetch"]\n`,
    );
    const body = 'x'.repeat(1_000_000);
    const site = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(body.length) });
      response.end(body);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/big.txt`;
    const seen: string[] = [];
    const server = await home.ollama([
      () => ({ toolCalls: [{ name: 'shell_exec', arguments: { command: 'seq 1 1000000' } }] }),
      (request: FakeRequest) => {
        seen.push(lastToolResult(request));
        return { toolCalls: [{ name: 'web_fetch', arguments: { url } }] };
      },
      (request: FakeRequest) => {
        seen.push(lastToolResult(request));
        return 'Done.';
      },
    ]);
    try {
      const run = await home.cli(
        [
          '--db',
          join(home.root, 'small.db'),
          'run',
          'run seq and fetch the page',
          '--quiet',
          '--config',
          config,
        ],
        { OLLAMA_HOST: server.url },
      );
      expect(run.stderr).toBe('');
      const [shell, fetched] = seen.map((text) => text.split('\n')[0] ?? '');
      expect(shell).toContain(
        `[cut: kept ${bound.toLocaleString('en-US')} bytes of an output whose size is unknown`,
      );
      expect(shell).toContain('max_stored_bytes');
      expect(shell).toContain('fs_read and offset');
      expect(fetched).toContain(`[cut: kept ${bound.toLocaleString('en-US')} of 1,000,000 bytes`);
      expect(fetched).toContain(`"Range": "bytes=${bound}-"`);
      // Both outputs are stored, the part within the bound whole.
      expect(seen[0]).toContain('output stored as shell_exec_1');
      expect(seen[1]).toContain('output stored as web_fetch_1');
    } finally {
      site.close();
    }
  }, 180_000);
});
