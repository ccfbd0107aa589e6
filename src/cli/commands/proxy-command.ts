import type { Command } from 'commander';
import { PRESET_NAMES, type PresetName } from '../../tools/preset.js';
import type { CliContext } from '../cli-context.js';
import { Option } from '../commander.js';
import { nonNegativeInteger, positiveInteger } from '../parse-number.js';

interface ProxyFlags {
  preset: PresetName;
  threshold?: number;
  maxRequestBytes?: number;
  maxReplyBytes?: number;
}

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
    .option(
      '--max-request-bytes <n>',
      'largest request accepted from the client (default 16 MiB)',
      positiveInteger,
    )
    .option('--max-reply-bytes <n>', 'largest reply sent to the client (default 8 MiB)', positiveInteger)
    .argument('<command>', 'the upstream server command (after --)')
    .argument('[args...]', 'its arguments')
    .action(async (command: string, args: string[], flags: ProxyFlags) => {
      const [{ startMcpProxy }, { serveStdio }, { createPreset }] = await Promise.all([
        import('../../mcp/proxy/mcp-proxy.js'),
        import('../../mcp/serve-stdio.js'),
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
        ...(flags.maxReplyBytes === undefined ? {} : { maxReplyBytes: flags.maxReplyBytes }),
        log: (message) => context.stderr.write(`${message}\n`),
      });
      try {
        await serveStdio(proxy.server, {
          stdin: context.stdin,
          stdout: context.stdout,
          ...(flags.maxRequestBytes === undefined ? {} : { maxRequestBytes: flags.maxRequestBytes }),
          ...(flags.maxReplyBytes === undefined ? {} : { maxReplyBytes: flags.maxReplyBytes }),
        });
      } finally {
        await proxy.close();
      }
    });
}
