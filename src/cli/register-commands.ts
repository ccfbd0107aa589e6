import type { Command } from 'commander';
import type { CliContext } from './cli-context.js';
import { COMMAND_TABLE, type CommandListing } from './command-table.js';
import { Help } from './commander.js';
import { selectedCommandNames } from './selected-commands.js';

/**
 * Adds every command of {@link COMMAND_TABLE} to `program`: the modules of the commands `argv` selects are loaded
 * and register the real commands (`help NAME` selects NAME); every other command is a listing (its name, help line
 * and summary, which is all the root `--help` and an unknown command's "Did you mean" need), so its module is never
 * imported.
 */
export async function registerCommands(
  program: Command,
  context: CliContext,
  argv: readonly string[],
): Promise<void> {
  const selected = new Set(selectedCommandNames(argv));
  const terms = new WeakMap<Command, string>();
  for (const module of COMMAND_TABLE) {
    if (module.commands.some((listing) => selected.has(listing.name))) {
      (await module.load())(program, context);
    } else {
      for (const listing of module.commands) terms.set(addListing(program, listing), listing.term);
    }
  }
  // The root help writes a listing's line as the real command's would be written.
  program.configureHelp({
    subcommandTerm(command) {
      return terms.get(command) ?? Help.prototype.subcommandTerm.call(this, command);
    },
  });
}

/** A command that stands for one not loaded. Never runs: the command line that selects it loads the real one. */
function addListing(program: Command, listing: CommandListing): Command {
  return program
    .command(listing.name)
    .description(listing.summary)
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new Error(`the command table did not load "${listing.name}" for this command line`);
    });
}
