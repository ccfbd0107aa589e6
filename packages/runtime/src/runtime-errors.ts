import { defineErrorCodes } from 'llm-scratchpad';

/** The error codes the agent runtime owns (its providers, executors, sandbox and scheduler). */
export type RuntimeErrorCode =
  | 'PROVIDER_UNREACHABLE'
  | 'PROVIDER_ERROR'
  | 'EXECUTOR_INVALID'
  | 'INSIDE_SANDBOX'
  | 'WRITE_REFUSED'
  | 'SCHEDULER_LOCKED';

const runtimeErrors = defineErrorCodes<RuntimeErrorCode>({
  PROVIDER_UNREACHABLE: 'third-party',
  PROVIDER_ERROR: 'third-party',
  EXECUTOR_INVALID: 'system',
  INSIDE_SANDBOX: 'user',
  WRITE_REFUSED: 'user',
  SCHEDULER_LOCKED: 'user',
});

/** The runtime's error codes, in the order `docs/errors.md` lists them. */
export const RUNTIME_ERROR_CODES = runtimeErrors.codes;

/** A `ScratchpadError` with one of the runtime's codes (and that code's category). */
export const runtimeError = runtimeErrors.error;
