import type { Command } from 'commander';
import { PRESET_NAMES, type PresetName } from '../../tools/preset.js';
import type { CliContext } from '../cli-context.js';
import { Option } from '../commander.js';
import { positiveInteger } from '../parse-number.js';
import {
  allowedHostOption,
  checkHttpFlags,
  type HttpServeFlags,
  httpOption,
  serveMcpHttp,
  tokenFileOption,
} from './serve-mcp-http.js';

interface McpFlags extends HttpServeFlags {
  preset: PresetName;
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
    .addOption(httpOption())
    .addOption(tokenFileOption())
    .addOption(allowedHostOption())
    .option('--max-request-bytes <n>', 'largest request accepted (default 16 MiB)', positiveInteger)
    .option('--max-reply-bytes <n>', 'largest reply sent (default 8 MiB)', positiveInteger)
    .action(async (flags: McpFlags) => {
      checkHttpFlags(flags);
      const [
        { createMcpServer },
        { createModernMcpServer },
        { serveStdioEras },
        { createPreset },
        { EntryPresence },
      ] = await Promise.all([
        import('../../mcp/mcp-server.js'),
        import('../../mcp/modern-mcp-server.js'),
        import('../../mcp/serve-stdio-eras.js'),
        import('../../tools/presets/create-preset.js'),
        import('../../mcp/entry-presence.js'),
      ]);
      const scratchpad = await context.scratchpad();
      const session = context.options.session;
      const serverOptions = () => ({
        scratchpad,
        session,
        preset: createPreset(flags.preset),
        ...(flags.maxReplyBytes === undefined ? {} : { maxReplyBytes: flags.maxReplyBytes }),
      });
      // A preset whose read tool appears with the session's first entry: 2026-07-28 listeners hear that change.
      const watchToolList = createPreset(flags.preset).readToolOnDemand
        ? (announce: () => void) => new EntryPresence(scratchpad.session(session)).onChange(announce)
        : undefined;
      if (!flags.http) {
        await serveStdioEras(
          (era) =>
            createModernMcpServer(serverOptions(), era, { toolListWatched: watchToolList !== undefined }),
          {
            ...(watchToolList ? { watchToolList } : {}),
            stdin: context.stdin,
            stdout: context.stdout,
            ...(flags.maxRequestBytes === undefined ? {} : { maxRequestBytes: flags.maxRequestBytes }),
            ...(flags.maxReplyBytes === undefined ? {} : { maxReplyBytes: flags.maxReplyBytes }),
          },
          () => createMcpServer(serverOptions()),
        );
        return;
      }
      await serveMcpHttp(
        context,
        { ...flags, http: flags.http },
        () => createMcpServer(serverOptions()),
        () =>
          createModernMcpServer(serverOptions(), 'modern', { toolListWatched: watchToolList !== undefined }),
        `scratchpad mcp: serving ${flags.preset} tools for session "${session}"`,
        // Its handlers send nothing while they run: one JSON body per call, about twice the calls per second.
        'json',
        watchToolList,
      );
    });
}
