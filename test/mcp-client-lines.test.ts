import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from './helpers/built-cli.js';
import { toolText } from './helpers/cli-client.js';
import { type DocumentedServerLine, expandHome, readmeMcpServerLines } from './helpers/readme-mcp-lines.js';
import { type RemoteUpstream, startRemote } from './helpers/remote-upstream.js';

// Proves each MCP client line the README documents (Claude Code, Cursor, VS Code, Codex) as its client runs it: the
// package is packed once (`npm pack`), each line is spawned with its exact command and arguments through the
// official SDK's stdio transport, with one change: the package name becomes `file:` + the tarball's absolute path
// (npx installs that tarball as it would install the package from the registry; a bare path would not do: npx runs
// an existing file named as its first argument as the command itself). npx installs the tarball's dependencies
// from the npm registry, into an npm cache that starts empty and that the lines share, in turn: the first line
// pays for the install, the others reuse it. Each line gets its own empty HOME and XDG directories, so nothing
// reads or writes the user's store or configuration.

const root = fileURLToPath(new URL('../', import.meta.url));
const packageName = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string }).name;
const lines = readmeMcpServerLines();

// The first line installs every dependency from the registry into an empty cache (nothing compiles, decision
// 014); the others start from the cache.
const firstStartTimeout = 5 * 60_000;
const laterStartTimeout = 3 * 60_000;

/**
 * The documented proxy upstream. The test runs it from this checkout's devDependency (same package) with the Node
 * running the tests, instead of a second `npx -y` download, and gives it a fresh directory for the documented one
 * (`~/src`, `/home/me/src`), which does not exist here.
 */
const documentedUpstream = ['npx', '-y', '@modelcontextprotocol/server-filesystem'];
const filesystemServer = join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

/** The bearer token the remote upstream asks for; the line's token file is written with it. */
const REMOTE_TOKEN = 'readme-remote-token-0123456789';

let work: string;
let tarball: string;
let npmCache: string;
let remote: RemoteUpstream;

beforeAll(async () => {
  ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'scratchpad-client-lines-'));
  npmCache = join(work, 'npm-cache');
  const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', work], {
    cwd: root,
    encoding: 'utf8',
  }).trim();
  tarball = join(work, packed);
  remote = await startRemote('streamable', REMOTE_TOKEN);
}, 120_000);
// Removing the npm cache the lines shared (thousands of files) can take a while on a loaded machine.
afterAll(async () => {
  await remote?.close();
  if (work) rmSync(work, { recursive: true, force: true });
}, 120_000);

/** The line's arguments with the package name pointing at the tarball, and the proxy's upstream made local. */
function argumentsFromTarball(line: DocumentedServerLine, home: string, upstreamDirectory: string): string[] {
  const args = expandHome(line, home);
  expect(
    args.filter((arg) => arg === packageName),
    `${line.source}: names ${packageName} once`,
  ).toHaveLength(1);
  const fromTarball = args.map((arg) => (arg === packageName ? `file:${tarball}` : arg));
  const proxy = fromTarball.indexOf('proxy');
  if (proxy < 0) return fromTarball;
  const url = fromTarball.indexOf('--url', proxy);
  if (url >= 0) return remoteUpstreamArguments(line, fromTarball, url);
  const separator = fromTarball.indexOf('--', proxy);
  const upstream = fromTarball.slice(separator + 1);
  expect(upstream.slice(0, -1), `${line.source}: the upstream this test runs locally`).toEqual(
    documentedUpstream,
  );
  expect(upstream).toHaveLength(documentedUpstream.length + 1);
  return [...fromTarball.slice(0, separator + 1), process.execPath, filesystemServer, upstreamDirectory];
}

/**
 * A `proxy --url URL --upstream-token-file FILE` line: the documented URL becomes the local remote upstream's, and
 * the documented token file (under the line's home) is written with its token, as the user would have it.
 */
function remoteUpstreamArguments(line: DocumentedServerLine, args: string[], url: number): string[] {
  expect(args[url + 1], `${line.source}: a remote upstream URL`).toMatch(/^https:\/\//);
  const tokenFlag = args.indexOf('--upstream-token-file');
  const tokenFile = args[tokenFlag + 1];
  expect(tokenFlag, `${line.source}: the token comes from a file`).toBeGreaterThan(url);
  if (tokenFile === undefined) throw new Error(`${line.source}: --upstream-token-file without a file`);
  mkdirSync(dirname(tokenFile), { recursive: true });
  writeFileSync(tokenFile, `${REMOTE_TOKEN}\n`, { mode: 0o600 });
  return args.map((arg, index) => (index === url + 1 ? remote.url : arg));
}

/** The environment a client gives the server (the SDK's default inherited variables), pointed at `home`. */
function clientEnvironment(home: string): Record<string, string> {
  return {
    ...getDefaultEnvironment(),
    HOME: home,
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    npm_config_cache: npmCache,
  };
}

/** Spawns the line as its client does and connects the official SDK client; stderr is kept for failures. */
async function startLine(line: DocumentedServerLine, args: string[], home: string, timeout: number) {
  let stderr = '';
  const transport = new StdioClientTransport({
    command: line.command,
    args,
    env: clientEnvironment(home),
    cwd: home,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'readme-client-line', version: '1.0.0' });
  try {
    await client.connect(transport, { timeout });
  } catch (error) {
    await client.close();
    throw new Error(`${line.source}\ndid not start: ${String(error)}\nstderr:\n${stderr.slice(-4000)}`);
  }
  return client;
}

/** Reads an entry back whole through its resource, found by name in the server's resource list. */
async function readEntryResource(client: Client, name: string): Promise<string | undefined> {
  const { resources } = await client.listResources();
  const resource = resources.find((candidate) => candidate.name === name);
  if (!resource) throw new Error(`no resource for the entry "${name}"`);
  const { contents } = await client.readResource({ uri: resource.uri });
  const [first] = contents;
  return first && 'text' in first ? first.text : undefined;
}

/** `scratchpad mcp`: the scratchpad tools; a write is read back whole, from the default SQLite store in HOME. */
async function writeAndReadBack(client: Client, home: string, content: string): Promise<void> {
  const names = (await client.listTools()).tools.map((tool) => tool.name);
  expect(names).toEqual(expect.arrayContaining(['scratchpad_write', 'scratchpad_read']));
  const written = await client.callTool({ name: 'scratchpad_write', arguments: { name: 'note', content } });
  expect(written.isError, toolText(written)).toBeFalsy();
  expect(await readEntryResource(client, 'note')).toBe(content);
  expect(existsSync(join(home, '.local', 'share', 'scratchpad', 'scratchpad.db'))).toBe(true);
}

/**
 * `scratchpad proxy -- <filesystem server>`: the upstream's tools next to the scratchpad's; a file written through
 * the upstream is read back through it, then saved whole in the scratchpad by the proxy's `scratchpad` parameter
 * and read back from there.
 */
async function proxyWriteAndReadBack(client: Client, directory: string, content: string): Promise<void> {
  const names = (await client.listTools()).tools.map((tool) => tool.name);
  expect(names).toEqual(
    expect.arrayContaining(['write_file', 'read_text_file', 'scratchpad_write', 'scratchpad_read']),
  );
  const path = join(directory, 'note.txt');
  const written = await client.callTool({ name: 'write_file', arguments: { path, content } });
  expect(written.isError, toolText(written)).toBeFalsy();
  expect(readFileSync(path, 'utf8')).toBe(content);
  const read = await client.callTool({ name: 'read_text_file', arguments: { path } });
  expect(toolText(read)).toBe(content);
  const saved = await client.callTool({ name: 'read_text_file', arguments: { path, scratchpad: 'note' } });
  expect(toolText(saved)).toMatch(/^Saved the result of read_text_file to the scratchpad as "note"/);
  expect(await readEntryResource(client, 'note')).toBe(content);
}

/**
 * `scratchpad proxy --url …`: the remote upstream's tools next to the scratchpad's, reached with the token from the
 * file; a small result saved whole by the `scratchpad` parameter is read back from the store.
 */
async function remoteProxyCall(client: Client): Promise<void> {
  const names = (await client.listTools()).tools.map((tool) => tool.name);
  expect(names).toEqual(expect.arrayContaining(['remote_ping', 'remote_logs', 'scratchpad_read']));
  const saved = await client.callTool({ name: 'remote_ping', arguments: { scratchpad: 'pong' } });
  expect(toolText(saved)).toMatch(/^Saved the result of remote_ping to the scratchpad as "pong"/);
  expect(await readEntryResource(client, 'pong')).toBe('remote pong');
  expect(remote.authorizations.at(-1)).toBe(`Bearer ${REMOTE_TOKEN}`);
}

describe("the README's MCP client lines, started from the packed package as each client starts them", () => {
  it('documents npx lines for Claude Code, Cursor, VS Code and Codex, the server and the proxy', () => {
    expect(new Set(lines.map((line) => line.client))).toEqual(
      new Set(['Claude Code', 'Cursor', 'VS Code', 'Codex']),
    );
    for (const line of lines) {
      expect([line.command, ...line.args.slice(0, 2)], line.source).toEqual(['npx', '-y', packageName]);
      expect(line.args.includes('mcp') || line.args.includes('proxy'), line.source).toBe(true);
    }
    const claudeCode = lines.filter((line) => line.client === 'Claude Code');
    expect(claudeCode.map((line) => line.args.includes('proxy'))).toEqual([false, true, true]);
    expect(claudeCode.map((line) => line.args.includes('--url'))).toEqual([false, false, true]);
    for (const line of lines.filter((candidate) => candidate.client === 'VS Code')) {
      expect(line.type, line.source).toBe('stdio');
    }
  });

  lines.forEach((line, index) => {
    const timeout = index === 0 ? firstStartTimeout : laterStartTimeout;
    it(`${line.client} "${line.server}": ${line.command} ${line.args.join(' ')}`, { timeout }, async () => {
      const home = mkdtempSync(join(work, 'home-'));
      const upstreamDirectory = join(home, 'upstream-files');
      mkdirSync(upstreamDirectory);
      const args = argumentsFromTarball(line, home, upstreamDirectory);
      const client = await startLine(line, args, home, timeout);
      try {
        const content = `written through ${line.client}'s "${line.server}" line\nsecond line, ünïcode ✓\n`;
        if (args.includes('--url')) await remoteProxyCall(client);
        else if (args.includes('proxy')) await proxyWriteAndReadBack(client, upstreamDirectory, content);
        else await writeAndReadBack(client, home, content);
      } finally {
        await client.close();
      }
    });
  });
});
