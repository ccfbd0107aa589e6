#!/usr/bin/env node
import module from 'node:module';
import { errorPayload, formatError } from '../core/format-error.js';
import { guardOutputStream, outputFailure } from './output-errors.js';
import { packageVersion } from './package-version.js';

// Node 22.1+ keeps the compiled code of the modules loaded below in a cache on disk (the OS temp directory):
// later starts skip compiling them. Node 20 has no such cache.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const argv = process.argv.slice(2);
// A reader that closed early (`| head`) ends the command quietly; a full disk on stdout is one line, not a trace.
guardOutputStream(
  process.stdout,
  (error) => {
    const failure = outputFailure(error);
    process.stderr.write(
      argv.includes('--json')
        ? `${JSON.stringify({ error: errorPayload(failure) })}\n`
        : `scratchpad: ${formatError(failure)}\n`,
    );
  },
  (code) => process.exit(code),
);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // What the parser prints for this command line, without loading the parser and the commands.
  process.stdout.write(`${packageVersion()}\n`);
} else {
  const { runCli } = await import('./run-cli.js');
  process.exitCode = await runCli(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
  });
}
