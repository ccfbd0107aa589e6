import { defineErrorCodes } from '../core/errors.js';

/** The error codes the MCP layer owns (the proxy's upstream; session handles of the 2026-07-28 revision). */
export type McpErrorCode = 'UPSTREAM_UNAVAILABLE' | 'SESSION_HANDLE_INVALID' | 'SESSION_HANDLE_EXPIRED';

const mcpErrors = defineErrorCodes<McpErrorCode>({
  UPSTREAM_UNAVAILABLE: 'third-party',
  SESSION_HANDLE_INVALID: 'user',
  SESSION_HANDLE_EXPIRED: 'user',
});

/** The MCP layer's error codes, in the order `docs/errors.md` lists them. */
export const MCP_ERROR_CODES = mcpErrors.codes;

/** A `ScratchpadError` with one of the MCP layer's codes (and that code's category). */
export const mcpError = mcpErrors.error;
