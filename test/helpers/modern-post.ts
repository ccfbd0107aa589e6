import { expect } from 'vitest';

/** The MCP revision a raw stateless request speaks. */
export const MODERN = '2026-07-28';

/**
 * One raw JSON-RPC POST to `url` as a client of the 2026-07-28 revision sends it (the version and capabilities in
 * `_meta`, the standard headers), like Claude Code's probe; expects HTTP 200 and returns the JSON-RPC reply.
 */
export async function postModernRequest(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
): Promise<{ result?: Record<string, unknown>; error?: { code: number; message?: string } }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
      ...(typeof params.uri === 'string' ? { 'mcp-name': params.uri } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  expect(response.status, method).toBe(200);
  return (await response.json()) as { result?: Record<string, unknown>; error?: { code: number } };
}
