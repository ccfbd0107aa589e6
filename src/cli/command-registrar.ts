import type { Command } from 'commander';
import type { CliContext } from './cli-context.js';

/** Registers one group of commands on the CLI's commander program. */
export type CommandRegistrar = (program: Command, context: CliContext) => void;
