import { defineErrorCodes } from '../core/errors.js';

/** The error codes the CLI owns. */
export type CliErrorCode = 'RUNTIME_NOT_INSTALLED';

const cliErrors = defineErrorCodes<CliErrorCode>({
  RUNTIME_NOT_INSTALLED: 'user',
});

/** The CLI's error codes, in the order `docs/errors.md` lists them. */
export const CLI_ERROR_CODES = cliErrors.codes;

/** A `ScratchpadError` with one of the CLI's codes (and that code's category). */
export const cliError = cliErrors.error;
