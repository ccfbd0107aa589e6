import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { containsReference, resolveReferences } from '../context/references/resolve-references.js';
import { ScratchpadError } from '../core/errors.js';
import { formatError } from '../core/format-error.js';
import type { SessionScratchpad } from '../service/session-scratchpad.js';
import type { Preset } from '../tools/preset.js';
import { runTool, type ScratchpadTool, toolJsonSchema } from '../tools/tool.js';
import { TOOL_NAMES } from '../tools/tool-names.js';
import type { EntryPresence } from './entry-presence.js';

/** Configuration of {@link ScratchpadTools}. */
export interface ScratchpadToolsConfig {
  session: SessionScratchpad;
  preset: Preset;
  /** Largest content one tool reply may carry; reads refuse bigger slices before reading them. */
  maxReplyContentBytes: number;
  /** Largest size the `{{scratchpad:NAME}}` references of one call may expand to. */
  maxReferenceBytes: number;
  /** Followed by the read tool when the preset offers it on demand (seed 000). */
  presence: EntryPresence;
  /** The read tool stays listed whatever the preset says (the proxy: results it offloads must be readable). */
  alwaysOfferRead?: boolean;
  log: (message: string) => void;
}

/**
 * The preset's tools as MCP tools, confined to one session: listing (the read tool only once there is an entry,
 * where the preset asks for it), and calls with `{{scratchpad:NAME}}` references resolved from that session,
 * bounded in size. Failures are `isError` results that say what to do; a bug in a tool is reported the same way
 * and the server keeps running.
 */
export class ScratchpadTools {
  readonly #config: ScratchpadToolsConfig;

  constructor(config: ScratchpadToolsConfig) {
    this.#config = config;
  }

  /** True when `name` is one of the preset's tools. */
  has(name: string): boolean {
    return this.#config.preset.tools.some((tool) => tool.name === name);
  }

  /** True when the list can change while serving (so the server declares `tools.listChanged`). */
  get dynamic(): boolean {
    return this.#config.preset.readToolOnDemand === true && this.#config.alwaysOfferRead !== true;
  }

  /** The tools to list now. */
  async list(): Promise<Tool[]> {
    let tools = this.#config.preset.tools;
    if (this.dynamic && !(await this.#config.presence.check())) {
      tools = tools.filter((tool) => tool.name !== TOOL_NAMES.read);
    }
    return tools.map(toMcpTool);
  }

  /** Runs one of the preset's tools on raw client arguments. */
  async call(name: string, args: unknown, signal?: AbortSignal): Promise<CallToolResult> {
    const tool = this.#config.preset.tools.find((candidate) => candidate.name === name);
    if (!tool) {
      const available = this.#config.preset.tools.map((item) => item.name).join(', ');
      return errorResult(`There is no scratchpad tool "${name}". Available tools: ${available}.`);
    }
    try {
      const input = await resolveArguments(args, this.#config.session, this.#config.maxReferenceBytes);
      const output = await runTool(tool, input, {
        session: this.#config.session,
        maxReplyBytes: this.#config.maxReplyContentBytes,
        ...(signal ? { signal } : {}),
      });
      return { content: [{ type: 'text', text: output.text }], ...(output.isError ? { isError: true } : {}) };
    } catch (error) {
      if (ScratchpadError.isInstance(error)) return errorResult(formatError(error));
      this.#config.log(
        `scratchpad: tool ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      return errorResult(
        `Internal error in ${name}: ${error instanceof Error ? error.message : String(error)}. This is a bug in the scratchpad server; the server is still running.`,
      );
    } finally {
      if (this.dynamic) void this.#config.presence.check().catch(() => undefined);
    }
  }
}

/**
 * Resolves `{{scratchpad:NAME}}` in tool arguments from `session` only, the expansion bounded by `maxBytes`;
 * arguments without references pass unchanged. Throws `REFERENCE_UNRESOLVED` / `CONTENT_TOO_LARGE`.
 */
export async function resolveArguments(
  args: unknown,
  session: SessionScratchpad,
  maxBytes: number,
): Promise<unknown> {
  if (!containsReference(args)) return args;
  return (await resolveReferences(args, { session, maxBytes })).value;
}

/** An `isError` tool result with one text block. */
export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function toMcpTool(tool: ScratchpadTool): Tool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: toolJsonSchema(tool) as Tool['inputSchema'],
  };
}
