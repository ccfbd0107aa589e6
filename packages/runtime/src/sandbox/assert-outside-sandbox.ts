import { runtimeError } from '../runtime-errors.js';
import { detectSandbox } from './sandbox-marker.js';

/**
 * Throws `INSIDE_SANDBOX` when this process runs inside a Scratchpad sandbox (see `detectSandbox`): signing and
 * key generation decide which code may run, so a model's executor must never be able to do them.
 */
export function assertOutsideSandbox(action: string): void {
  const reason = detectSandbox();
  if (!reason) return;
  throw runtimeError('INSIDE_SANDBOX', `Refusing to ${action} inside a sandbox (${reason}).`, {
    hint:
      'Signing decides which code may run, so only you may do it, outside any sandbox: read the code, then run ' +
      '`scratchpad executor sign DIR` in your own terminal.',
    details: { reason },
  });
}
