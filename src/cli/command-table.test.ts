import { PassThrough } from 'node:stream';
import type { Command as CommandType } from 'commander';
import { describe, expect, it } from 'vitest';
import { type CliContext, createCliContext } from './cli-context.js';
import { COMMAND_TABLE } from './command-table.js';
import { Command, Help } from './commander.js';
import { declareGlobalOptions } from './global-options.js';
import { registerCommands } from './register-commands.js';

function program(): CommandType {
  return declareGlobalOptions(new Command('scratchpad').version('1.2.3', '-V, --version')).exitOverride();
}

function context(root: CommandType): CliContext {
  return createCliContext(root, {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    env: {},
  });
}

/** What the root help shows of each command: name, help line and summary. */
function listed(root: CommandType): { name: string; term: string; summary: string }[] {
  const help = root.createHelp();
  return root.commands.map((command) => ({
    name: command.name(),
    term: help.subcommandTerm(command),
    summary: help.subcommandDescription(command),
  }));
}

describe('the lazy command table', () => {
  it('lists each module exactly as the module registers its commands', async () => {
    for (const module of COMMAND_TABLE) {
      const root = program();
      (await module.load())(root, context(root));
      const help = new Help();
      expect(
        root.commands.map((command) => ({
          name: command.name(),
          term: help.subcommandTerm(command),
          summary: command.description(),
        })),
      ).toEqual(module.commands);
    }
  });

  it('names every command once', () => {
    const names = COMMAND_TABLE.flatMap((module) => module.commands.map((listing) => listing.name));
    expect(new Set(names).size).toBe(names.length);
  });

  it('gives the root --help the same text with nothing loaded as with every module loaded', async () => {
    const lazy = program();
    await registerCommands(lazy, context(lazy), ['--help']);
    const eager = program();
    for (const module of COMMAND_TABLE) (await module.load())(eager, context(eager));
    expect(listed(lazy)).toEqual(listed(eager));
    expect(lazy.helpInformation()).toBe(eager.helpInformation());
    expect(lazy.helpInformation()).toContain('read [options] <name>');
  });

  it('registers the real command, with its options, for the command a line selects', async () => {
    const root = program();
    await registerCommands(root, context(root), ['--db', 'x.db', 'read', 'log', '--head', '10']);
    const read = root.commands.find((command) => command.name() === 'read');
    expect(read?.options.map((option) => option.long)).toContain('--head');
    const write = root.commands.find((command) => command.name() === 'write');
    expect(write?.options).toEqual([]);
  });
});
