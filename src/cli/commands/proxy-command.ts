import type { Command } from 'commander';
import { PRESET_NAMES, type PresetName } from '../../tools/preset.js';
import type { CliContext } from '../cli-context.js';
import { Option } from '../commander.js';
import { nonNegativeInteger, positiveInteger } from '../parse-number.js';
import { describeUpstream, upstreamOf } from './proxy-upstream.js';
import {
  allowedHostOption,
  checkHttpFlags,
  type HttpServeFlags,
  httpOption,
  serveMcpHttp,
  tokenFileOption,
} from './serve-mcp-http.js';

interface ProxyFlags extends HttpServeFlags {
  preset: PresetName;
  url?: string;
  header: string[];
  upstreamTokenFile?: string;
  threshold?: number;
}

/**
 * `scratchpad proxy [--preset P] [--threshold N] -- CMD ARGS…` or `… --url URL [--header 'H: V']… [--token-file F]`:
 * an MCP proxy that adds offloading to any server, started over stdio or reached by URL.
 */
export function registerProxyCommand(program: Command, context: CliContext): void {
  program
    .command('proxy')
    .description(
      'serve an upstream MCP server (a command over stdio, or --url) through the scratchpad: large results are stored, previews shown',
    )
    .option('--url <url>', 'the upstream is a remote MCP server at this URL (Streamable HTTP, or HTTP+SSE)')
    .addOption(
      new Option('--header <header>', "with --url: send this header, 'Name: value' (repeatable)")
        .argParser((value: string, previous: string[]) => [...previous, value])
        .default([], 'none'),
    )
    .option(
      '--upstream-token-file <file>',
      "with --url: send 'Authorization: Bearer' and the token in this file",
    )
    .addOption(httpOption())
    .addOption(tokenFileOption())
    .addOption(allowedHostOption())
    .addOption(
      new Option('--preset <preset>', 'scratchpad tools and offload format')
        .choices(PRESET_NAMES)
        .default('default'),
    )
    .option(
      '--threshold <n>',
      'offload results larger than this (bytes; chars for --preset named)',
      nonNegativeInteger,
    )
    .option(
      '--max-request-bytes <n>',
      'largest request accepted from the client (default 16 MiB)',
      positiveInteger,
    )
    .option('--max-reply-bytes <n>', 'largest reply sent to the client (default 8 MiB)', positiveInteger)
    .argument('[command]', 'the upstream server command (after --), unless --url is given')
    .argument('[args...]', 'its arguments')
    .action(async (command: string | undefined, args: string[], flags: ProxyFlags) => {
      const upstream = upstreamOf(command, args, flags);
      checkHttpFlags(flags);
      const [{ startMcpProxy }, { serveStdioEras }, { createPreset }] = await Promise.all([
        import('../../mcp/proxy/mcp-proxy.js'),
        import('../../mcp/serve-stdio-eras.js'),
        import('../../tools/presets/create-preset.js'),
      ]);
      const scratchpad = await context.scratchpad();
      const format = flags.preset === 'metnos' || flags.preset === 'named' ? flags.preset : 'default';
      const proxy = await startMcpProxy({
        scratchpad,
        session: context.options.session,
        preset: createPreset(flags.preset),
        upstream,
        policy: { format, ...(flags.threshold === undefined ? {} : { threshold: flags.threshold }) },
        ...(flags.maxReplyBytes === undefined ? {} : { maxReplyBytes: flags.maxReplyBytes }),
        log: (message) => context.stderr.write(`${message}\n`),
      });
      try {
        if (flags.http)
          await serveMcpHttp(
            context,
            { ...flags, http: flags.http },
            () => proxy.createServer(),
            () => proxy.createModernServer('modern', { toolListWatched: true }),
            `scratchpad proxy: serving ${describeUpstream(upstream)} with the ${flags.preset} tools for session "${context.options.session}"`,
            // What the upstream sends while a call runs (progress, log messages, sampling) goes on that call's stream.
            'stream',
            proxy.watchToolList,
          );
        // The opening message picks the era: `initialize` for 2025-11-25, `server/discover` for 2026-07-28.
        else
          await serveStdioEras(
            (era) => proxy.createModernServer(era, { toolListWatched: true }),
            {
              watchToolList: proxy.watchToolList,
              stdin: context.stdin,
              stdout: context.stdout,
              ...(flags.maxRequestBytes === undefined ? {} : { maxRequestBytes: flags.maxRequestBytes }),
              ...(flags.maxReplyBytes === undefined ? {} : { maxReplyBytes: flags.maxReplyBytes }),
            },
            () => proxy.server,
          );
      } finally {
        await proxy.close();
      }
    });
}
