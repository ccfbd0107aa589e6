import type { Command } from 'commander';
import { PRESET_NAMES, type PresetName } from '../../tools/preset.js';
import type { CliContext } from '../cli-context.js';
import { Option } from '../commander.js';
import { positiveInteger } from '../parse-number.js';

interface McpFlags {
  preset: PresetName;
  http?: string;
  tokenFile?: string;
  allowedHost: string[];
  maxRequestBytes?: number;
  maxReplyBytes?: number;
}

/**
 * `scratchpad mcp [--preset P] [--http HOST:PORT [--token-file F] [--allowed-host H]…] [--max-request-bytes N]`:
 * an MCP server for one session over stdio (default) or Streamable HTTP.
 */
export function registerMcpCommand(program: Command, context: CliContext): void {
  program
    .command('mcp')
    .description('run an MCP server with the scratchpad tools for one session (stdio by default)')
    .addOption(new Option('--preset <preset>', 'tool set').choices(PRESET_NAMES).default('default'))
    .option('--http <host:port>', 'serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio')
    .option('--token-file <file>', 'with --http: require this bearer token (env SCRATCHPAD_TOKEN)')
    .option(
      '--allowed-host <name>',
      'with --http: also accept this Host/Origin name (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .option('--max-request-bytes <n>', 'largest request accepted (default 16 MiB)', positiveInteger)
    .option('--max-reply-bytes <n>', 'largest reply sent (default 8 MiB)', positiveInteger)
    .action(async (flags: McpFlags) => {
      const [
        { createMcpServer },
        { serveStdio },
        { serveHttp },
        { createPreset },
        { loadToken },
        { ScratchpadError },
      ] = await Promise.all([
        import('../../mcp/mcp-server.js'),
        import('../../mcp/serve-stdio.js'),
        import('../../mcp/http/serve-http.js'),
        import('../../tools/presets/create-preset.js'),
        import('../../http/bearer-token.js'),
        import('../../core/errors.js'),
      ]);
      if (!flags.http && (flags.tokenFile !== undefined || flags.allowedHost.length > 0)) {
        throw new ScratchpadError(
          'INVALID_ARGUMENT',
          '--token-file and --allowed-host apply to --http only.',
          {
            hint: 'Add --http HOST:PORT, or drop them for stdio.',
          },
        );
      }
      const limits = {
        ...(flags.maxRequestBytes === undefined ? {} : { maxRequestBytes: flags.maxRequestBytes }),
        ...(flags.maxReplyBytes === undefined ? {} : { maxReplyBytes: flags.maxReplyBytes }),
      };
      const scratchpad = await context.scratchpad();
      const session = context.options.session;
      const build = () =>
        createMcpServer({
          scratchpad,
          session,
          preset: createPreset(flags.preset),
          ...(flags.maxReplyBytes === undefined ? {} : { maxReplyBytes: flags.maxReplyBytes }),
        });
      if (!flags.http) {
        await serveStdio(build(), { stdin: context.stdin, stdout: context.stdout, ...limits });
        return;
      }
      const token = loadToken({
        ...(flags.tokenFile === undefined ? {} : { tokenFile: flags.tokenFile }),
        env: context.env,
      });
      const server = await serveHttp({
        createServer: build,
        address: flags.http,
        allowedHosts: flags.allowedHost,
        ...(token === undefined ? {} : { token }),
        ...limits,
        log: (message) => context.stderr.write(`${message}\n`),
      });
      context.stderr.write(
        `scratchpad mcp: serving ${flags.preset} tools for session "${session}" at ${server.url}${token ? ' (bearer token required)' : ''}\n`,
      );
      await new Promise<void>((resolve) => {
        const stop = () => void server.close().then(resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
