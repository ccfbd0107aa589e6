import { Command } from './commander.js';
import { declareGlobalOptions } from './global-options.js';

/**
 * The command names a command line selects: its first operand once the global options are set aside (`read` in
 * `--db x.db read log --head 10`), and with `help` the command whose help it asks for. Reads the line with
 * commander's own option parser and the same global options as the program, so it finds the command the program
 * will run. Empty when there is none (`--help`, `--version`, a bare `scratchpad`, an unknown option first, or a
 * malformed global option, which the program then reports).
 */
export function selectedCommandNames(argv: readonly string[]): string[] {
  const probe = declareGlobalOptions(new Command())
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  let operands: string[];
  try {
    operands = probe.parseOptions([...argv]).operands;
  } catch {
    return [];
  }
  const [first, second] = operands;
  if (first === undefined) return [];
  return first === 'help' && second !== undefined ? [first, second] : [first];
}
