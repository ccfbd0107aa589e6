#!/usr/bin/env node
import { errorPayload, formatError } from '../core/format-error.js';
import { guardOutputStream, outputFailure } from './output-errors.js';
import { runCli } from './run-cli.js';

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
const code = await runCli(argv, {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
});
process.exitCode = code;
