import type { Scratchpad } from '../service/scratchpad.js';
import type { Preset } from '../tools/preset.js';
import { EntryPresence } from './entry-presence.js';
import { EntryResources } from './entry-resources.js';
import { ScratchpadTools } from './scratchpad-tools.js';
import { serverInstructions } from './server-instructions.js';
import type { SessionHandlesOptions } from './session-handles.js';
import { DEFAULT_MAX_REPLY_BYTES } from './transport/message-limits.js';

/** Options for `createMcpServer` (`mcp-server.ts`) and its v2-SDK twin (`modern-mcp-server.ts`). */
export interface McpServerOptions {
  scratchpad: Scratchpad;
  /** The one session this server serves: its tools, resources and completions see no other. */
  session: string;
  preset: Preset;
  /** Server name and version reported to clients. */
  name?: string;
  version?: string;
  /** The reply limit of the transport (default 8 MiB): reads refuse slices that would not fit. */
  maxReplyBytes?: number;
  /** Largest size the `{{scratchpad:NAME}}` references of one call may expand to (default: the reply limit). */
  maxReferenceBytes?: number;
  /** How often to look for the session's first entry when the read tool waits for one (default 1 s). */
  presencePollMs?: number;
  /** Where unexpected failures are reported (default: stderr; stdout belongs to the protocol). */
  log?: (message: string) => void;
  /**
   * 2026-07-28 clients only: session handles (`scratchpad_session` issues one; every tool takes it as `session`),
   * on by default; `false` serves `session` alone, as to 2025-11-25 clients. Decision 019.
   */
  sessionHandles?: SessionHandlesOptions | false;
}

/** The share of the reply limit a tool's content may use; the rest is room for framing and JSON escapes. */
export function replyContentBudget(maxReplyBytes: number): number {
  return Math.floor(maxReplyBytes * 0.9);
}

/**
 * What a server of one session serves, whichever SDK era it answers in (`mcp-server.ts` on the v1 SDK,
 * `modern-mcp-server.ts` on the v2 SDK): the same tools, resources and completions, built once from the options.
 */
export interface ServedSession {
  serverInfo: { name: string; version: string };
  /** The preset's instructions for the model, when it has some. */
  instructions: string | undefined;
  tools: ScratchpadTools;
  resources: EntryResources;
  /** Watches for the session's first entry (the read tool of a dynamic preset appears then). */
  presence: EntryPresence;
}

/**
 * Builds the tools, resources and presence watch a server of `options.session` serves; with `alwaysOfferRead`
 * (the proxy, whose offloaded results must be readable) the read tool is listed from the start.
 */
export function serveSession(options: McpServerOptions, { alwaysOfferRead = false } = {}): ServedSession {
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const session = options.scratchpad.session(options.session);
  const maxReplyBytes = options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
  const presence = new EntryPresence(session, { pollMs: options.presencePollMs ?? 1000 });
  const tools = new ScratchpadTools({
    session,
    preset: options.preset,
    maxReplyContentBytes: replyContentBudget(maxReplyBytes),
    maxReferenceBytes: options.maxReferenceBytes ?? maxReplyBytes,
    presence,
    alwaysOfferRead,
    log,
  });
  return {
    serverInfo: { name: options.name ?? 'scratchpad', version: options.version ?? '0.1.0' },
    instructions: serverInstructions(options.preset),
    tools,
    resources: new EntryResources(session, { maxReplyContentBytes: replyContentBudget(maxReplyBytes) }),
    presence,
  };
}

/** The part of either SDK's low-level `Server` that announces a changed tool list. */
interface ToolListAnnouncer {
  oninitialized?: (() => void) | undefined;
  onclose?: (() => void) | undefined;
  sendToolListChanged(): Promise<void>;
}

/**
 * Sends `notifications/tools/list_changed` on `server` when the session's first entry appears (the read tool of a
 * dynamic preset with it), from the client's `initialized` until the connection closes.
 */
export function announceToolListChanges(server: ToolListAnnouncer, presence: EntryPresence): void {
  let stop: (() => void) | undefined;
  server.oninitialized = () => {
    stop = presence.onChange(() => void server.sendToolListChanged().catch(() => undefined));
  };
  server.onclose = () => stop?.();
}
