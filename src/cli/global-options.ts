import type { Command } from 'commander';

/**
 * Declares the options every command shares (`--db`, `--store`, `--session`, `--json`, `--no-redact`) on the root
 * command. The CLI's program and {@link selectedCommandNames}'s probe declare the same ones, so both read a command
 * line alike.
 */
export function declareGlobalOptions(command: Command): Command {
  return command
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
    );
}
