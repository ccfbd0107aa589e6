import { PassThrough } from 'node:stream';
import type { Command as CommandType } from 'commander';
import { describe, expect, it } from 'vitest';
import { createCliContext } from './cli-context.js';
import { COMMAND_TABLE } from './command-table.js';
import { Command } from './commander.js';
import { declareGlobalOptions } from './global-options.js';
import { selectedCommandNames } from './selected-commands.js';

const DISPATCHED = Symbol('dispatched');

/**
 * The commands commander itself dispatches for `argv` with every module loaded: a hook records each subcommand as
 * the parse enters it, then stops the parse before any action runs; `help NAME` shows NAME's help without entering
 * it, so showing a command's help records it too.
 */
async function dispatched(argv: string[]): Promise<string[]> {
  const root: CommandType = declareGlobalOptions(new Command('scratchpad').version('1.2.3', '-V, --version'))
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  const context = createCliContext(root, {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    env: {},
  });
  for (const module of COMMAND_TABLE) (await module.load())(root, context);
  const names = new Set<string>();
  for (const command of root.commands) {
    command.exitOverride().configureOutput(root.configureOutput());
    command.on('beforeHelp', () => names.add(command.name()));
  }
  root.hook('preSubcommand', (_, subcommand) => {
    names.add(subcommand.name());
    throw DISPATCHED;
  });
  try {
    await root.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error !== DISPATCHED && !(error instanceof Error && 'exitCode' in error)) throw error;
  }
  return [...names];
}

describe('selectedCommandNames', () => {
  const lines = [
    ['read', 'log', '--head', '10'],
    ['--db', 'read', 'list'],
    ['--db=x.db', 'read', 'log'],
    ['--store', 'memory:', '--session', 's1', '--json', 'search', 'timeout'],
    ['read', 'log', '--json', '--head', '3'],
    ['--no-redact', 'mcp', '--preset', 'default'],
    ['proxy', '--', 'node', 'server.js', '--db', 'x'],
    ['--', 'read', 'log'],
    ['help', 'read'],
    ['help', 'nope'],
    ['help'],
    ['read', '--help'],
    ['--help'],
    ['--help', 'read'],
    ['--version'],
    ['--json', '--version'],
    ['--bogus', 'read', 'log'],
    ['-5', 'read'],
    ['--db'],
    ['reed', 'log'],
    ['executor', 'verify', 'dir'],
    [],
  ];
  for (const argv of lines) {
    it(`finds the command commander runs for: scratchpad ${argv.join(' ')}`, async () => {
      const selected = selectedCommandNames(argv);
      for (const name of await dispatched(argv)) expect(selected).toContain(name);
    });
  }

  it('names the command and, for help, the command asked about, as commander dispatches them', async () => {
    expect(await dispatched(['--db', 'x.db', 'read', 'log', '--head', '10'])).toEqual(['read']);
    expect(await dispatched(['help', 'read'])).toEqual(['read']);
    expect(selectedCommandNames(['--db', 'x.db', 'read', 'log', '--head', '10'])).toEqual(['read']);
    expect(selectedCommandNames(['help', 'read'])).toEqual(['help', 'read']);
    expect(selectedCommandNames(['--help'])).toEqual([]);
    expect(selectedCommandNames(['--version'])).toEqual([]);
  });
});
