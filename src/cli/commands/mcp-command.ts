import { type Command, Option } from 'commander';
import { PRESET_NAMES, type PresetName } from '../../tools/preset.js';
import type { CliContext } from '../cli-context.js';

/** `scratchpad mcp [--preset P] [--http HOST:PORT]`: an MCP server over stdio (default) or Streamable HTTP. */
export function registerMcpCommand(program: Command, context: CliContext): void {
  program
    .command('mcp')
    .description('run an MCP server with the scratchpad tools (stdio by default)')
    .addOption(new Option('--preset <preset>', 'tool set').choices(PRESET_NAMES).default('default'))
    .option('--http <host:port>', 'serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio')
    .action(async (flags: { preset: PresetName; http?: string }) => {
      const [{ createMcpServer }, { serveHttp, serveStdio }, { createPreset }] = await Promise.all([
        import('../../mcp/mcp-server.js'),
        import('../../mcp/serve.js'),
        import('../../tools/presets/create-preset.js'),
      ]);
      const scratchpad = await context.scratchpad();
      const session = context.options.session;
      const build = () => createMcpServer({ scratchpad, session, preset: createPreset(flags.preset) });
      if (!flags.http) {
        await serveStdio(build());
        return;
      }
      const http = await serveHttp(build, flags.http);
      context.stderr.write(`scratchpad mcp: serving ${flags.preset} tools at http://${flags.http}/mcp\n`);
      await new Promise<void>((resolve) => {
        const stop = () => http.close(() => resolve());
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
