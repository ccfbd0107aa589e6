import { createRequire } from 'node:module';

type CommanderModule = typeof import('commander');

/**
 * commander's classes, loaded with `require()`. commander is CommonJS: an ES-module import of it goes through Node's
 * CommonJS translator (an export-name scan, asynchronous loading), which costs a process more than `require()`
 * (Node 20 on a loaded 2-core machine, medians of 15 runs over an empty module: +34 ms CPU and +142 ms wall against
 * +26 ms and +40 ms). Every value the CLI takes from commander comes from here; types come from 'commander'.
 */
const commander = createRequire(import.meta.url)('commander') as CommanderModule;

export const { Command, CommanderError, Help, InvalidArgumentError, Option } = commander;
