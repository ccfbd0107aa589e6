import { resolve as resolvePath } from 'node:path';
import type { Command } from 'llm-scratchpad/cli';
import type { CliContext } from 'llm-scratchpad/cli';
import { isTerminal, Option, textForStdout } from 'llm-scratchpad/cli';

/**
 * `scratchpad run "QUERY" [--provider P] [--model M] [--mode local|online|hybrid] [--write-root PATH]… [--quiet |
 * --verbose] [--raw]`: one
 * agent turn (seed 002), its progress on stderr and the answer on stdout (control characters shown as `?` on a
 * terminal unless `--raw`).
 */
export function registerRunCommand(program: Command, context: CliContext): void {
  program
    .command('run')
    .description(
      'run one agent turn: the model plans with signed executors, large results go to the scratchpad',
    )
    .argument('<query>', 'what you want done')
    .addOption(
      new Option('--provider <provider>', 'model provider (default: the config file, else ollama)').choices([
        'ollama',
        'openai',
        'anthropic',
      ]),
    )
    .option('--model <model>', 'model name (default: the config file, else qwen3:8b on ollama)')
    .addOption(
      new Option('--tier <tier>', 'model tier from the config file')
        .choices(['fast', 'middle', 'wise'])
        .default('fast'),
    )
    .option('--config <path>', 'config file (default $XDG_CONFIG_HOME/scratchpad/config.toml)')
    .option('--executors <dir...>', 'more signed executor folders to load')
    .addOption(
      new Option('--style <style>', 'scratchpad style: default, or metnos (seed 000)')
        .choices(['default', 'metnos'])
        .default('default'),
    )
    .option('--think', 'let the model think (Ollama `think`)')
    .option(
      '--no-sandbox',
      'run executors without the operating-system sandbox (bubblewrap): they can then read and change anything you can',
    )
    .option(
      '--write-root <path>',
      'let executors write in this folder too (repeatable; adds to [runtime.sandbox] write_roots); /tmp may be one',
      (path: string, previous: string[]) => [...previous, resolvePath(path)],
      [] as string[],
    )
    .addOption(
      new Option('--mode <mode>', 'planner mode (default: the config file, else local)').choices([
        'local',
        'online',
        'hybrid',
      ]),
    )
    .addOption(new Option('--quiet', 'print no progress on stderr').conflicts('verbose'))
    .option('--verbose', "also print the model's own text in the progress")
    .option(
      '--raw',
      "print the answer's control characters as they are on a terminal too (by default a terminal sees them as ?; a pipe always gets them)",
    )
    .action(
      async (
        query: string,
        flags: {
          provider?: string;
          model?: string;
          tier: 'fast' | 'middle' | 'wise';
          config?: string;
          executors?: string[];
          style: 'default' | 'metnos';
          think?: boolean;
          sandbox: boolean;
          writeRoot: string[];
          mode?: 'local' | 'online' | 'hybrid';
          quiet?: boolean;
          verbose?: boolean;
          raw?: boolean;
        },
      ) => {
        const [{ runQuery }, { createTurnProgress }] = await Promise.all([
          import('../planner/run-query.js'),
          import('./turn-progress.js'),
        ]);
        const scratchpad = await context.scratchpad();
        const result = await runQuery({
          query,
          tier: flags.tier,
          scratchpad,
          store: context.storeUrl(),
          session: context.options.session,
          scratchpadStyle: flags.style,
          env: context.env,
          ...(flags.provider ? { provider: flags.provider } : {}),
          ...(flags.model ? { model: flags.model } : {}),
          ...(flags.config ? { configPath: flags.config } : {}),
          ...(flags.executors ? { executorDirs: flags.executors } : {}),
          ...(flags.think ? { think: true } : {}),
          ...(flags.sandbox ? {} : { sandbox: false }),
          ...(flags.writeRoot.length > 0 ? { writeRoots: flags.writeRoot } : {}),
          ...(flags.mode ? { mode: flags.mode } : {}),
          ...(flags.quiet
            ? {}
            : { onEvent: createTurnProgress(context.stderr, { verbose: flags.verbose === true }) }),
        });
        if (result.sandbox.status !== 'bubblewrap')
          context.stderr.write(`scratchpad run: ${result.sandbox.description}\n`);
        if (context.options.json) {
          context.print('', { ...result.record, log_file: result.logFile ?? null });
        } else {
          // The answer is the model's text (hostile): no escape sequence reaches a terminal unless asked for.
          const target = { terminal: isTerminal(context.stdout), raw: flags.raw === true };
          context.stdout.write(`${textForStdout(result.finalMessage, target)}\n`);
          if (result.finalKind !== 'answer')
            context.stderr.write(
              `scratchpad run: the turn ended with ${result.finalKind} (turn ${result.turnId})\n`,
            );
        }
        if (result.finalKind !== 'answer') context.fail();
      },
    );
}
