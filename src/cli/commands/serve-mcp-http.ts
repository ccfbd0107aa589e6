import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Server as ModernServer } from '@modelcontextprotocol/server';
import type { Option as CommanderOption } from 'commander';
import { ScratchpadError } from '../../core/errors.js';
import type { ToolListWatch } from '../../mcp/tool-list-watch.js';
import type { CliContext } from '../cli-context.js';
import { Option } from '../commander.js';

/** `--http HOST:PORT`, as `mcp` and `proxy` take it. */
export function httpOption(): CommanderOption {
  return new Option('--http <host:port>', 'serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio');
}

/** `--token-file FILE`: the bearer token an HTTP server requires. */
export function tokenFileOption(): CommanderOption {
  return new Option('--token-file <file>', 'with --http: require this bearer token (env SCRATCHPAD_TOKEN)');
}

/** `--allowed-host NAME`, repeatable: more Host/Origin names an HTTP server accepts. */
export function allowedHostOption(): CommanderOption {
  return new Option('--allowed-host <name>', 'with --http: also accept this Host/Origin name (repeatable)')
    .argParser((value: string, previous: string[]) => [...previous, value])
    .default([], 'none');
}

/** The flags `mcp` and `proxy` share for serving Streamable HTTP. */
export interface HttpServeFlags {
  http?: string;
  tokenFile?: string;
  allowedHost: string[];
  maxRequestBytes?: number;
  maxReplyBytes?: number;
}

/** `INVALID_ARGUMENT` when an HTTP-only flag is given without `--http`. */
export function checkHttpFlags(flags: HttpServeFlags): void {
  if (!flags.http && (flags.tokenFile !== undefined || flags.allowedHost.length > 0))
    throw new ScratchpadError('INVALID_ARGUMENT', '--token-file and --allowed-host apply to --http only.', {
      hint: 'Add --http HOST:PORT, or drop them for stdio.',
    });
}

/**
 * Serves Streamable HTTP at `flags.http` with the shared guards (a bearer token off loopback, the Host/Origin
 * allow-list, body limits, one MCP session per client: `createServer` makes each one's server), prints where on
 * stderr, and runs until SIGINT or SIGTERM.
 */
export async function serveMcpHttp(
  context: CliContext,
  flags: HttpServeFlags & { http: string },
  createServer: () => Server,
  createModernServer: (() => ModernServer) | undefined,
  what: string,
  replies: 'stream' | 'json',
  watchToolList?: ToolListWatch,
): Promise<void> {
  const [{ serveHttp }, { loadToken }] = await Promise.all([
    import('../../mcp/http/serve-http.js'),
    import('../../http/bearer-token.js'),
  ]);
  const token = loadToken({
    ...(flags.tokenFile === undefined ? {} : { tokenFile: flags.tokenFile }),
    env: context.env,
  });
  const server = await serveHttp({
    createServer,
    replies,
    ...(createModernServer ? { createModernServer } : {}),
    ...(watchToolList ? { watchToolList } : {}),
    address: flags.http,
    allowedHosts: flags.allowedHost,
    ...(token === undefined ? {} : { token }),
    ...(flags.maxRequestBytes === undefined ? {} : { maxRequestBytes: flags.maxRequestBytes }),
    ...(flags.maxReplyBytes === undefined ? {} : { maxReplyBytes: flags.maxReplyBytes }),
    log: (message) => context.stderr.write(`${message}\n`),
  });
  context.stderr.write(`${what} at ${server.url}${token ? ' (bearer token required)' : ''}\n`);
  const others = server.urls.slice(1);
  if (others.length > 0) {
    const command = what.split(':')[0];
    context.stderr.write(
      `${command}: listening on every interface (${flags.http}); from other machines connect to ${others.join(' or ')}\n`,
    );
  }
  await new Promise<void>((resolve) => {
    const stop = () => void server.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
