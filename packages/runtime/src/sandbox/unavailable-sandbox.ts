import type { Sandbox } from './sandbox.js';

/**
 * The sandbox that could not be set up (`status: 'unavailable'`): every call is refused with `reason`, which says
 * what is missing, what to install, and how to run without a sandbox on purpose.
 */
export function createUnavailableSandbox(reason: string): Sandbox {
  return {
    status: 'unavailable',
    description: reason,
    async plan(request) {
      return { ok: false, reason: `Refused: ${request.name} was not run. ${reason}` };
    },
  };
}
