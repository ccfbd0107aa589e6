import { type Command, Option } from 'commander';
import { PRESET_NAMES, type PresetName } from '../../tools/preset.js';
import type { CliContext } from '../cli-context.js';
import { nonNegativeInteger } from '../parse-number.js';

/** `scratchpad proxy [--preset P] [--threshold N] -- CMD ARGS…`: an MCP proxy that adds offloading to any server. */
export function registerProxyCommand(program: Command, context: CliContext): void {
  program
    .command('proxy')
    .description(
      'serve an upstream stdio MCP server through the scratchpad: large results are stored, previews shown',
    )
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
    .argument('<command>', 'the upstream server command (after --)')
    .argument('[args...]', 'its arguments')
    .action(async (command: string, args: string[], flags: { preset: PresetName; threshold?: number }) => {
      const [{ startMcpProxy }, { serveStdio }, { createPreset }] = await Promise.all([
        import('../../mcp/mcp-proxy.js'),
        import('../../mcp/serve.js'),
        import('../../tools/presets/create-preset.js'),
      ]);
      const scratchpad = await context.scratchpad();
      const format = flags.preset === 'metnos' || flags.preset === 'named' ? flags.preset : 'default';
      const proxy = await startMcpProxy({
        scratchpad,
        session: context.options.session,
        preset: createPreset(flags.preset),
        upstream: { command, args },
        policy: { format, ...(flags.threshold === undefined ? {} : { threshold: flags.threshold }) },
      });
      try {
        await serveStdio(proxy.server);
      } finally {
        await proxy.close();
      }
    });
}
