import { resolveEntry } from '../executors/resolve-entry.js';
import type { Sandbox } from './sandbox.js';

/**
 * No operating-system boundary (`status: 'off'`): the call runs as a plain subprocess of the verified copy, with
 * the scrubbed environment. What `--no-sandbox` and `[runtime.sandbox] enabled = false` choose, and what a library
 * caller gets when it passes no sandbox.
 */
export function createNoSandbox(): Sandbox {
  return {
    status: 'off',
    description:
      'executors ran without a sandbox (turned off with --no-sandbox or [runtime.sandbox] enabled = false)',
    async plan(request) {
      const [command, ...args] = resolveEntry(request.entry, request.codeDir);
      return {
        ok: true,
        command: command ?? '',
        args,
        cwd: request.cwd,
        env: { ...request.env },
        network: true,
      };
    },
  };
}
