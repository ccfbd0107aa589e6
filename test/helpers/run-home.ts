import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type FakeRequest,
  type FakeScriptStep,
  type FakeServer,
  startFakeOllama,
  startFakeOpenAI,
} from '../../src/testing/fake-servers/index.js';
import { builtCli } from './built-cli.js';
import { type CliRun, runCliAsync } from './run-cli-async.js';

/** A throwaway home for end-to-end runs of the built CLI: XDG folders, a working folder, config files. */
export interface RunHome {
  readonly root: string;
  readonly workdir: string;
  readonly dataDir: string;
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
  /** Writes `text` as a config file and returns its path (for `run --config`). */
  config(name: string, text: string): string;
  /** Runs the built CLI in the working folder. */
  cli(args: string[], extraEnv?: Record<string, string>): Promise<CliRun>;
  /** Starts a fake Ollama (or OpenAI-compatible) server replaying `script`, stopped by {@link close}. */
  ollama(script: readonly FakeScriptStep[]): Promise<FakeServer>;
  openai(script: readonly FakeScriptStep[]): Promise<FakeServer>;
  /** Stops the fake servers and removes the home. */
  close(): Promise<void>;
}

/** Creates a {@link RunHome} under the system temp folder. */
export function createRunHome(prefix: string): RunHome {
  const cli = builtCli();
  const root = mkdtempSync(join(tmpdir(), prefix));
  const workdir = join(root, 'work');
  mkdirSync(workdir, { recursive: true });
  const servers: FakeServer[] = [];
  const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH ?? '',
    HOME: root,
    XDG_DATA_HOME: join(root, 'data'),
    XDG_CONFIG_HOME: join(root, 'config'),
    ...extra,
  });
  return {
    root,
    workdir,
    dataDir: join(root, 'data', 'scratchpad'),
    env,
    config(name, text) {
      const path = join(root, `${name}.toml`);
      writeFileSync(path, text);
      return path;
    },
    cli: (args, extraEnv = {}) => runCliAsync(cli, args, { env: env(extraEnv), cwd: workdir }),
    async ollama(script) {
      const server = await startFakeOllama(script);
      servers.push(server);
      return server;
    },
    async openai(script) {
      const server = await startFakeOpenAI(script);
      servers.push(server);
      return server;
    },
    async close() {
      await Promise.all(servers.map((server) => server.close()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The text of the last tool result a provider request carries (OpenAI/Ollama `tool` message, Anthropic block). */
export function lastToolResult(request: FakeRequest): string {
  const messages = request.body.messages as Array<Record<string, unknown>>;
  const last = messages[messages.length - 1] as Record<string, unknown>;
  if (Array.isArray(last.content)) {
    const block = (last.content as Array<Record<string, unknown>>).findLast(
      (part) => part.type === 'tool_result',
    ) as Record<string, unknown>;
    return typeof block.content === 'string' ? block.content : JSON.stringify(block.content);
  }
  return String(last.content);
}

/** The tool names a provider request offers. */
export function offeredTools(request: FakeRequest): string[] {
  return (request.body.tools ?? []).map(
    (tool: Record<string, unknown>) => (tool.function as { name: string } | undefined)?.name ?? tool.name,
  );
}

/** The chat requests a fake server received (model calls only, not listings). */
export function chatRequests(requests: readonly FakeRequest[]): FakeRequest[] {
  return requests.filter((request) => request.method === 'POST');
}
