import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './helpers/built-cli.js';
import { connectStdio, toolText } from './helpers/cli-client.js';

const filesystemServer = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', import.meta.url),
);
/** File sizes read through the proxy, in MiB (the 5, 30 and 100). */
const SIZES = (process.env.SCRATCHPAD_PROXY_LARGE_MIB ?? '5,30,100').split(',').map(Number);
const MIB = 1024 * 1024;

let cli: string;
let home: string;
let files: string;
let client: Client;

/** Deterministic, line-structured, non-ASCII-bearing text of exactly `bytes` bytes. */
function fileText(bytes: number, seed: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let line = 0; size < bytes; line++) {
    const text = `${seed}:${line} ${line % 97 === 0 ? 'ERROR straße café' : 'INFO ok'} ${'x'.repeat(line % 50)}\n`;
    lines.push(text);
    size += Buffer.byteLength(text);
  }
  const buffer = Buffer.from(lines.join(''));
  return buffer
    .subarray(0, bytes)
    .toString('utf8')
    .replace(/\uFFFD$/, 'y');
}

beforeAll(async () => {
  cli = builtCli();
  home = mkdtempSync(join(tmpdir(), 'scratchpad-large-'));
  files = join(home, 'files');
  mkdirSync(files);
  writeFileSync(join(files, 'tiny.txt'), 'eighteen bytes ok\n');
  ({ client } = await connectStdio(
    [
      cli,
      '--db',
      join(home, 'large.db'),
      '--session',
      'big',
      'proxy',
      '--',
      process.execPath,
      filesystemServer,
      files,
    ],
    { ...process.env, XDG_DATA_HOME: home },
  ));
}, 120_000);

afterAll(async () => {
  await client?.close();
  rmSync(home, { recursive: true, force: true });
});

const text = toolText;

describe('scratchpad proxy in front of @modelcontextprotocol/server-filesystem', () => {
  it.each(SIZES)(
    'reads a %i MiB file: a preview comes back, slices read back byte-exact, later calls work',
    async (mebibytes) => {
      const content = fileText(mebibytes * MIB, mebibytes);
      const path = join(files, `file-${mebibytes}.txt`);
      writeFileSync(path, content);
      const started = performance.now();
      const result = await client.callTool({ name: 'read_text_file', arguments: { path } }, undefined, {
        timeout: 300_000,
      });
      const seconds = (performance.now() - started) / 1000;
      expect(result.isError, text(result).slice(0, 500)).toBeFalsy();
      const observation = text(result);
      expect(observation.length).toBeLessThan(20_000);
      const name = /stored as (read_text_file_\d+)/.exec(observation)?.[1] ?? '';
      expect(name).toMatch(/^read_text_file_\d+$/);
      expect((result.structuredContent as { content: string }).content.length).toBeLessThan(2000);
      const entry = (await client.listResources()).resources.find((resource) => resource.name === name);
      expect(entry?.size).toBe(Buffer.byteLength(content));
      for (const offset of [0, Math.floor(content.length / 2), content.length - 5000]) {
        const slice = await client.readResource({
          uri: `scratchpad://big/${name}?offset=${offset}&limit=5000`,
        });
        expect((slice.contents[0] as { text: string }).text).toBe(content.slice(offset, offset + 5000));
      }
      const tiny = await client.callTool({
        name: 'read_text_file',
        arguments: { path: join(files, 'tiny.txt') },
      });
      expect(text(tiny)).toBe('eighteen bytes ok\n');
      console.log(`proxy read_text_file ${mebibytes} MiB: ${seconds.toFixed(1)} s to a stored preview`);
    },
    300_000,
  );
});
