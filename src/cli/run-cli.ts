import { ScratchpadError } from '../core/errors.js';
import { errorPayload, formatError } from '../core/format-error.js';
import { createCliContext } from './cli-context.js';
import { cliWording } from './cli-wording.js';
import type { CommandRegistrar } from './command-registrar.js';
import { Command, CommanderError } from './commander.js';
import { declareGlobalOptions } from './global-options.js';
import { isClosedOutput, outputErrorCode, outputFailure } from './output-errors.js';
import { packageVersion } from './package-version.js';
import { registerCommands } from './register-commands.js';

/** Standard streams and environment of one CLI run (tests pass their own). */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
}

export type { CommandRegistrar };

/**
 * Runs the `scratchpad` CLI. Returns the exit code: 0 ok; 1 a bad value or a failed operation (message on
 * stderr); 2 a malformed command line (unknown command or flag, missing or malformed argument).
 */
export async function runCli(argv: string[], io: CliIo, extra: CommandRegistrar[] = []): Promise<number> {
  const jsonErrors = argv.includes('--json');
  const program = declareGlobalOptions(
    new Command('scratchpad')
      .description("Keep what does not fit in an LLM's context outside it, without losing it.")
      .version(packageVersion(), '-V, --version'),
  )
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      // Under --json a usage error is reported once, as JSON, by the catch below.
      writeErr: (text) => (jsonErrors ? undefined : io.stderr.write(text)),
    })
    .showHelpAfterError('(run scratchpad --help for usage)');
  const context = createCliContext(program, io);
  program.hook('preSubcommand', () => context.load());
  await registerCommands(program, context, argv);
  for (const register of extra) register(program, context);
  for (const command of program.commands) command.exitOverride().configureOutput(program.configureOutput());

  try {
    await program.parseAsync(argv, { from: 'user' });
    return context.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      const ok =
        error.exitCode === 0 ||
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version';
      if (!ok && jsonErrors) {
        const message = error.message.replace(/^error: /, '');
        const usage = new ScratchpadError(
          'INVALID_ARGUMENT',
          `${message.charAt(0).toUpperCase()}${message.slice(1)}.`,
          {
            hint: 'Run scratchpad --help for usage.',
          },
        );
        io.stderr.write(`${JSON.stringify({ error: errorPayload(usage) })}\n`);
      }
      return ok ? 0 : 2;
    }
    if (isClosedOutput(error)) return 0;
    const json = jsonErrors || program.opts<{ json?: boolean }>().json === true;
    if (outputErrorCode(error)) {
      const failure = outputFailure(error);
      io.stderr.write(
        json
          ? `${JSON.stringify({ error: errorPayload(failure) })}\n`
          : `scratchpad: ${formatError(failure)}\n`,
      );
      return 1;
    }
    if (ScratchpadError.isInstance(error)) {
      const worded = cliWording(error);
      io.stderr.write(
        json
          ? `${JSON.stringify({ error: errorPayload(worded) })}\n`
          : `scratchpad: ${formatError(worded)}\n`,
      );
      return error.details.usage === true ? 2 : 1;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr.write(
      json
        ? `${JSON.stringify({ error: { code: 'INTERNAL', message: `unexpected error (a bug, please report it): ${detail}` } })}\n`
        : `scratchpad: unexpected error (a bug, please report it): ${detail}\n`,
    );
    return 1;
  } finally {
    await context.close().catch(() => undefined);
  }
}
