import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ScratchpadError } from '../core/errors.js';
import { formatError } from '../core/format-error.js';
import { errorResult } from './scratchpad-tools.js';
import type { ServedSession } from './served-session.js';
import { describeLifetime, type SessionHandles } from './session-handles.js';

/** The tool that issues a session handle (2026-07-28 clients only). */
export const SESSION_TOOL_NAME = 'scratchpad_session';

/** The argument of every other tool that carries a handle. */
export const HANDLE_ARGUMENT = 'session';

/** The request `_meta` key that carries a handle where a request has no arguments (resources, completions). */
export const HANDLE_META_KEY = 'scratchpad/session';

/**
 * The tools a 2026-07-28 client sees: the preset's, each with an optional `session` argument (a handle), and
 * `scratchpad_session`, which issues one. A call with a handle runs in the handle's session, checked against the
 * store on that call; a call without one runs in the server's own session, as for 2025-11-25 clients. A bad or
 * expired handle is an `isError` result that says what to do.
 */
export class SessionHandleTools {
  readonly #handles: SessionHandles;
  readonly #own: ServedSession;
  readonly #open: (session: string) => ServedSession;

  /** `open` builds what a handle's session serves (the same preset and limits as `own`). */
  constructor(handles: SessionHandles, own: ServedSession, open: (session: string) => ServedSession) {
    this.#handles = handles;
    this.#own = own;
    this.#open = open;
  }

  /** The preset's tools with the handle argument, then `scratchpad_session`: the same order on every call. */
  async list(): Promise<Tool[]> {
    const lifetime = describeLifetime(this.#handles.lifetimeMs);
    const tools = (await this.#own.tools.list()).map((tool) => withHandleArgument(tool, lifetime));
    return [...tools, sessionTool(lifetime)];
  }

  /** Runs `name`: issues a handle, or runs a preset tool in the session its `session` argument names. */
  async call(name: string, args: unknown, signal?: AbortSignal): Promise<CallToolResult> {
    try {
      if (name === SESSION_TOOL_NAME) return await this.#issue();
      const { handle, rest } = takeHandle(args);
      if (handle === undefined) return await this.#own.tools.call(name, rest, signal);
      const served = this.#open(await this.#handles.resolve(handle));
      return await served.tools.call(name, rest, signal);
    } catch (error) {
      if (ScratchpadError.isInstance(error)) return errorResult(formatError(error));
      throw error;
    }
  }

  /**
   * What a request without arguments serves: the session of the handle in its `_meta` (checked against the store),
   * else the server's own. Throws the handle's `ScratchpadError`.
   */
  async servedFor(meta: Record<string, unknown> | undefined): Promise<ServedSession> {
    const handle = meta?.[HANDLE_META_KEY];
    if (handle === undefined) return this.#own;
    return this.#open(await this.#handles.resolve(handle));
  }

  async #issue(): Promise<CallToolResult> {
    const issued = await this.#handles.issue();
    const expiresAt = new Date(issued.expiresAt).toISOString();
    return {
      content: [
        {
          type: 'text',
          text: [
            `Session handle: ${issued.handle}`,
            `Pass it as "${HANDLE_ARGUMENT}" to the other scratchpad tools: they then read and write this session only, a new one that starts empty and that no other handle, and no call without this handle, can read.`,
            `It lasts until ${expiresAt} (${describeLifetime(this.#handles.lifetimeMs)}); after that, calls with it fail with SESSION_HANDLE_EXPIRED.`,
          ].join('\n'),
        },
      ],
      structuredContent: { handle: issued.handle, expiresAt },
    };
  }
}

/** Splits the handle argument off a call's arguments (what the preset's tool validates is left as it was sent). */
function takeHandle(args: unknown): { handle: unknown; rest: unknown } {
  if (typeof args !== 'object' || args === null || Array.isArray(args) || !(HANDLE_ARGUMENT in args))
    return { handle: undefined, rest: args };
  const { [HANDLE_ARGUMENT]: handle, ...rest } = args as Record<string, unknown>;
  // An explicit `null` is a missing handle, as JSON clients often send for an optional argument.
  return { handle: handle === null ? undefined : handle, rest };
}

function handleDescription(lifetime: string): string {
  return `Session handle from ${SESSION_TOOL_NAME} (default: the server's own session). A handle lasts ${lifetime}; then SESSION_HANDLE_EXPIRED.`;
}

function withHandleArgument(tool: Tool, lifetime: string): Tool {
  const properties = tool.inputSchema.properties ?? {};
  if (HANDLE_ARGUMENT in properties)
    throw new Error(
      `Tool ${tool.name} already has a "${HANDLE_ARGUMENT}" argument: it cannot take a session handle.`,
    );
  return {
    ...tool,
    inputSchema: {
      ...tool.inputSchema,
      properties: {
        ...properties,
        [HANDLE_ARGUMENT]: { type: 'string', description: handleDescription(lifetime) },
      },
    },
  };
}

function sessionTool(lifetime: string): Tool {
  return {
    name: SESSION_TOOL_NAME,
    description: `Opens a new, empty session and returns its handle. Pass it as "${HANDLE_ARGUMENT}" to the other scratchpad tools to use only that session's entries. A handle lasts ${lifetime}; then calls with it fail with SESSION_HANDLE_EXPIRED: open a new session (the old entries are not reachable through it).`,
    inputSchema: { type: 'object', properties: {} },
  };
}
