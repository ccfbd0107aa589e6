import type { Command } from 'commander';
import { cliError } from './cli-errors.js';
import type { CommandRegistrar } from './command-registrar.js';

/** The package of the agent runtime (seed 002), whose commands the CLI lists and loads when one runs. */
export const RUNTIME_PACKAGE = 'llm-scratchpad-runtime';

/** What `llm-scratchpad-runtime/cli` exports: one registrar per group of commands. */
interface RuntimeCli {
  registerRunCommand: CommandRegistrar;
  registerExecutorCommand: CommandRegistrar;
  registerMnestomeCommand: CommandRegistrar;
  registerSchedulerCommand: CommandRegistrar;
}

// A specifier in a variable: the library is built before the runtime (which depends on it), so its compiler must not
// look for the runtime's types.
const RUNTIME_CLI: string = `${RUNTIME_PACKAGE}/cli`;

/**
 * The registrar of a runtime command group, from the installed `llm-scratchpad-runtime`; when that package is not
 * installed, a registrar of commands with the same names that fail with `RUNTIME_NOT_INSTALLED`, saying how to
 * install it.
 */
export async function loadRuntimeCommand(
  registrar: keyof RuntimeCli,
  names: readonly string[],
): Promise<CommandRegistrar> {
  let runtime: RuntimeCli;
  try {
    runtime = (await import(RUNTIME_CLI)) as RuntimeCli;
  } catch (error) {
    if (!isRuntimeMissing(error)) throw error;
    return (program) => {
      for (const name of names) addMissingRuntimeCommand(program, name);
    };
  }
  return runtime[registrar];
}

/** True for the failure to find the runtime package itself (not a module the installed runtime lacks). */
function isRuntimeMissing(error: unknown): boolean {
  if (!(error instanceof Error) || (error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND')
    return false;
  return new RegExp(`['"]${RUNTIME_PACKAGE}['/"]`).test(error.message);
}

function addMissingRuntimeCommand(program: Command, name: string): void {
  program
    .command(name)
    .description(`(needs ${RUNTIME_PACKAGE}, not installed)`)
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .action((_flags: unknown, _command: Command) => {
      throw runtimeNotInstalled(name);
    });
}

/** The error of a runtime command run where the runtime package is not installed. */
export function runtimeNotInstalled(command: string): Error {
  return cliError(
    'RUNTIME_NOT_INSTALLED',
    `\`scratchpad ${command}\` is part of the agent runtime, the package ${RUNTIME_PACKAGE}, which is not installed next to llm-scratchpad.`,
    {
      hint: `Install it beside llm-scratchpad: \`npm install ${RUNTIME_PACKAGE}\` (or \`npx -p llm-scratchpad -p ${RUNTIME_PACKAGE} scratchpad ${command} …\`).`,
    },
  );
}
