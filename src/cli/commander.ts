import { createRequire } from 'node:module';

type CommanderModule = typeof import('commander');

/**
 * commander's classes, loaded with `require()`. commander is CommonJS: importing it as ES module makes Node scan its
 * source for export names first, which costs a `scratchpad --help` about a third of its start-up (see
 * `bench/cli-start.js`). Every value the CLI takes from commander comes from here; types come from 'commander'.
 */
const commander = createRequire(import.meta.url)('commander') as CommanderModule;

export const { Command, CommanderError, Help, InvalidArgumentError, Option } = commander;
