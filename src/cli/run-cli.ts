import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { ScratchpadError } from '../core/errors.js';
import { errorPayload, formatError } from '../core/format-error.js';
import { type CliContext, createCliContext } from './cli-context.js';
import { cliWording } from './cli-wording.js';
import { registerEntryCommands } from './commands/entry-commands.js';
import { registerExecutorCommand } from './commands/executor-command.js';
import { registerMcpCommand } from './commands/mcp-command.js';
import { registerMnestomeCommand } from './commands/mnestome-command.js';
import { registerNotesCommand } from './commands/notes-command.js';
import { registerProxyCommand } from './commands/proxy-command.js';
import { registerReadCommand } from './commands/read-command.js';
import { registerRunCommand } from './commands/run-command.js';
import { registerSchedulerCommand } from './commands/scheduler-command.js';
import { registerStoreCommands } from './commands/store-commands.js';
import { registerUiCommand } from './commands/ui-command.js';
import { registerWriteCommand } from './commands/write-command.js';
import { isClosedOutput, outputErrorCode, outputFailure } from './output-errors.js';

/** Standard streams and environment of one CLI run (tests pass their own). */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
}

/** Registers one group of commands. */
export type CommandRegistrar = (program: Command, context: CliContext) => void;

const REGISTRARS: CommandRegistrar[] = [
  registerWriteCommand,
  registerReadCommand,
  registerEntryCommands,
  registerStoreCommands,
  registerNotesCommand,
  registerMcpCommand,
  registerProxyCommand,
  registerRunCommand,
  registerExecutorCommand,
  registerMnestomeCommand,
  registerSchedulerCommand,
  registerUiCommand,
];

/**
 * Runs the `scratchpad` CLI. Returns the exit code: 0 ok; 1 a bad value or a failed operation (message on
 * stderr); 2 a malformed command line (unknown command or flag, missing or malformed argument).
 */
export async function runCli(argv: string[], io: CliIo, extra: CommandRegistrar[] = []): Promise<number> {
  const jsonErrors = argv.includes('--json');
  const program = new Command('scratchpad')
    .description("Keep what does not fit in an LLM's context outside it, without losing it.")
    .version(packageVersion(), '-V, --version')
    .option(
      '--db <path>',
      'SQLite database file (env SCRATCHPAD_DB; default $XDG_DATA_HOME/scratchpad/scratchpad.db)',
    )
    .option(
      '--store <url>',
      'store: sqlite:PATH, fs:DIR, postgres://USER@HOST/DB, memory: (env SCRATCHPAD_STORE)',
    )
    .option(
      '--session <id>',
      'session id (env SCRATCHPAD_SESSION, then config.toml [store] session; default "default")',
    )
    .option('--json', 'machine-readable output')
    .option(
      '--no-redact',
      'show secrets in tool results to the model as they are (env SCRATCHPAD_REDACT=off; default: redacted)',
    )
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      // Under --json a usage error is reported once, as JSON, by the catch below.
      writeErr: (text) => (jsonErrors ? undefined : io.stderr.write(text)),
    })
    .showHelpAfterError('(run scratchpad --help for usage)');
  const context = createCliContext(program, io);
  for (const register of [...REGISTRARS, ...extra]) register(program, context);
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

function packageVersion(): string {
  try {
    const path = new URL('../../package.json', import.meta.url);
    return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}
