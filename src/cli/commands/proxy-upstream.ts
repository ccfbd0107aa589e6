import { readFileSync } from 'node:fs';
import { ScratchpadError } from '../../core/errors.js';
import type { Upstream } from '../../mcp/proxy/upstream-endpoint.js';

/** The flags of `scratchpad proxy` that say where its upstream is. */
export interface UpstreamFlags {
  url?: string;
  header: string[];
  upstreamTokenFile?: string;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The upstream `scratchpad proxy` fronts: the command after `--`, or `--url` with its headers. Exactly one of the
 * two; headers and the token file only with `--url`. `USAGE` otherwise, naming what to change.
 */
export function upstreamOf(command: string | undefined, args: string[], flags: UpstreamFlags): Upstream {
  if (flags.url === undefined) {
    if (flags.header.length > 0 || flags.upstreamTokenFile !== undefined)
      throw new ScratchpadError(
        'INVALID_ARGUMENT',
        '--header and --upstream-token-file apply to --url only.',
        {
          hint: 'Add --url https://host/mcp, or drop them for an upstream command.',
        },
      );
    if (command === undefined)
      throw new ScratchpadError(
        'INVALID_ARGUMENT',
        'Say which MCP server to front: a command after --, or --url URL.',
        {
          hint: 'scratchpad proxy -- npx -y @modelcontextprotocol/server-filesystem /tmp, or scratchpad proxy --url https://host/mcp',
        },
      );
    return { command, args };
  }
  if (command !== undefined)
    throw new ScratchpadError(
      'INVALID_ARGUMENT',
      `Give the upstream either as --url or as a command, not both (got "${command}").`,
      {
        hint: 'Drop the command after --, or drop --url.',
      },
    );
  const headers: Record<string, string> = {};
  for (const header of flags.header) {
    const colon = header.indexOf(':');
    const name = colon < 0 ? '' : header.slice(0, colon).trim();
    if (!HEADER_NAME.test(name))
      throw new ScratchpadError('INVALID_ARGUMENT', `Not a header: "${header.slice(0, 80)}"`, {
        hint: "Write it as 'Name: value', e.g. --header 'Authorization: Bearer TOKEN'.",
      });
    headers[name] = header.slice(colon + 1).trim();
  }
  if (flags.upstreamTokenFile !== undefined) {
    let token: string;
    try {
      token = readFileSync(flags.upstreamTokenFile, 'utf8').trim();
    } catch (error) {
      throw new ScratchpadError(
        'INVALID_ARGUMENT',
        `Cannot read the token file ${flags.upstreamTokenFile}: ${(error as Error).message}`,
      );
    }
    if (token === '' || /[\r\n]/.test(token))
      throw new ScratchpadError(
        'INVALID_ARGUMENT',
        `The token file ${flags.upstreamTokenFile} must hold one token on one line.`,
      );
    headers.Authorization = `Bearer ${token}`;
  }
  return { url: flags.url, headers };
}

/** The upstream for a message: the command line, or the URL without credentials. */
export function describeUpstream(upstream: Upstream): string {
  if (!('url' in upstream)) return `"${[upstream.command, ...upstream.args].join(' ')}"`;
  const url = new URL(upstream.url);
  url.username = '';
  url.password = '';
  return url.href;
}
