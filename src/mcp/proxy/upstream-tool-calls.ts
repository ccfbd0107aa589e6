import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ScratchpadError } from '../../core/errors.js';
import { formatError } from '../../core/format-error.js';
import { isValidName } from '../../core/names.js';
import type { Redactor } from '../../core/redaction/redactor.js';
import { SCRATCHPAD_PARAMETER } from '../../tools/wrap-tools.js';
import type { RequestContext } from '../request-handlers.js';
import { errorResult, resolveArguments } from '../scratchpad-tools.js';
import type { ClientRequests } from './client-requests.js';
import { forwardToolResult, type ResultForwarderConfig } from './forward-result.js';
import type { ProxyPeer } from './proxy-peers.js';
import { redactedError, redactUpstream } from './redact-upstream.js';
import type { UpstreamConnection } from './upstream-connection.js';
import type { ServedTool } from './upstream-tools.js';

/** Configuration of {@link UpstreamToolCalls}. */
export interface UpstreamToolCallsConfig {
  upstream: UpstreamConnection;
  clientRequests: ClientRequests;
  /** Where results are stored and how they are previewed. */
  forwarding: ResultForwarderConfig;
  redactor: Redactor;
  /** Largest size the `{{scratchpad:NAME}}` references of one call may expand to. */
  maxReferenceBytes: number;
  /** How long one call may take without progress. */
  requestTimeoutMs: number;
  log: (message: string) => void;
}

/**
 * Calls of the upstream's tools for the proxy's clients: the optional `scratchpad` parameter (the entry to save
 * the result to) taken out, `{{scratchpad:NAME}}` references resolved from the session, progress passed on
 * redacted and in order, the upstream's requests during the call (sampling, elicitation) sent to the calling
 * client, and the result forwarded, offloaded when large (`forwardToolResult`). Our failures are `isError`
 * results; the upstream's protocol errors reach the client redacted.
 */
export class UpstreamToolCalls {
  readonly #config: UpstreamToolCallsConfig;

  constructor(config: UpstreamToolCallsConfig) {
    this.#config = config;
  }

  /** Calls `served` with the client's raw arguments, for the client `peer` (none in the 2026-07-28 era). */
  async call(
    served: ServedTool,
    args: Record<string, unknown>,
    context: RequestContext,
    peer: ProxyPeer | undefined,
  ): Promise<CallToolResult> {
    const { name } = served;
    const { upstream, clientRequests, forwarding, redactor } = this.#config;
    try {
      const { input, saveAs } = await this.#input(served, args);
      const progressToken = context.progressToken;
      let progressSent: Promise<unknown> = Promise.resolve();
      const options: RequestOptions = {
        signal: context.signal,
        timeout: this.#config.requestTimeoutMs,
        resetTimeoutOnProgress: true,
        ...(progressToken === undefined
          ? {}
          : {
              // In order, and all sent before the result: progress after it would reach no one.
              onprogress: (progress) => {
                progressSent = progressSent
                  .then(() => redactUpstream(progress, redactor))
                  .then((shown) =>
                    context.notify({ method: 'notifications/progress', params: { ...shown, progressToken } }),
                  )
                  .catch(() => undefined);
              },
            }),
      };
      const result = (await clientRequests.during(peer, context.send, () =>
        upstream.request((client) =>
          client.callTool({ name: served.upstreamName, arguments: input }, undefined, options),
        ),
      )) as CallToolResult;
      if (progressToken !== undefined) {
        // The SDK settles the result at once and hands notifications over a tick later: let the last progress in.
        await new Promise<void>((resolve) => setImmediate(resolve));
        await progressSent;
      }
      const call = {
        tool: name,
        ...(served.tool.outputSchema ? { outputSchema: served.tool.outputSchema } : {}),
        ...(saveAs === undefined ? {} : { saveAs }),
      };
      return await forwardToolResult(result, call, forwarding);
    } catch (error) {
      if (ScratchpadError.isInstance(error)) return errorResult(formatError(error));
      if (error instanceof McpError) throw await redactedError(error, redactor);
      this.#config.log(
        `scratchpad proxy: ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      return errorResult(
        await redactor.redact(
          `Error: ${name} failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    }
  }

  /** The upstream's arguments (the `scratchpad` parameter taken out, references resolved) and the entry to save to. */
  async #input(
    served: ServedTool,
    args: Record<string, unknown>,
  ): Promise<{ input: Record<string, unknown>; saveAs: string | undefined }> {
    const { [SCRATCHPAD_PARAMETER]: given, ...rest } = args;
    const saveAs = served.addsParameter ? given : undefined;
    if (saveAs !== undefined && (typeof saveAs !== 'string' || !isValidName(saveAs))) {
      throw new ScratchpadError(
        'INVALID_NAME',
        `"${SCRATCHPAD_PARAMETER}" must be an entry name, got ${JSON.stringify(saveAs)}.`,
        { hint: 'Use letters, digits, "-", "_" and "." (e.g. "search-results").' },
      );
    }
    const input = (await resolveArguments(
      served.addsParameter ? rest : args,
      this.#config.forwarding.session,
      this.#config.maxReferenceBytes,
    )) as Record<string, unknown>;
    return { input, saveAs };
  }
}
