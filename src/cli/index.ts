/**
 * `llm-scratchpad/cli`: what a package needs to add commands to the `scratchpad` CLI. The agent runtime
 * (`llm-scratchpad-runtime`) registers `run`, `executor`, `mnestome` and `scheduler` through it: the CLI's command
 * table loads `llm-scratchpad-runtime/cli` when one of those commands runs, and says how to install the runtime when
 * it is missing.
 *
 * Every export below is deliberate (test/public-api.test.ts pins the list).
 */
// biome-ignore-all assist/source/organizeImports: grouped by concept, in reading order

/** What a command gets: the global options, the output streams, the store opened on first use. */
export type { CliContext, GlobalOptions } from './cli-context.js';
/** Registers one group of commands on the CLI's commander program. */
export type { CommandRegistrar } from './command-registrar.js';
/** commander's command type, as the CLI's registrars receive it. */
export type { Command } from 'commander';
/** commander's `Option`, from the CLI's own copy of commander. */
export { Option } from './commander.js';
/** A time given on the command line (ISO 8601), as milliseconds since the epoch; a typed error otherwise. */
export { isoTime } from './parse-time.js';
/** Rows under a header, in aligned columns. */
export { table } from './text-table.js';
/** Text for a terminal with its control characters shown as `?`; exact in a pipe or with `--raw`. */
export {
  isTerminal,
  neutraliseControlCharacters,
  type StdoutTarget,
  textForStdout,
} from './terminal-text.js';
