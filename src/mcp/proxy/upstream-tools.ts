import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Redactor } from '../../core/redaction/redactor.js';
import type { JsonSchema } from '../../tools/tool.js';
import { SCRATCHPAD_PARAMETER, withScratchpadParameter } from '../../tools/wrap-tools.js';
import type { PageSource } from './proxy-cursor.js';
import { redactUpstream } from './redact-upstream.js';
import type { UpstreamConnection } from './upstream-connection.js';

/** An upstream tool as the client sees it, and what forwarding a call needs. */
export interface ServedTool {
  /** The name the upstream knows (the client sees the redacted one). */
  upstreamName: string;
  tool: Tool;
  /** The name the client sees: the upstream's, redacted. */
  name: string;
  /** True when the proxy adds the `scratchpad` parameter (the upstream's tool has none of that name). */
  addsParameter: boolean;
}

/**
 * The upstream's tools as last listed, by the name the client sees (redacted). A tool whose name is taken (by a
 * scratchpad tool, or by another upstream tool after redaction) is logged and not served.
 */
export class UpstreamTools {
  #served = new Map<string, ServedTool>();
  /** Bumped at each refresh: a tools/list cursor made before names no position in the new list. */
  #version = 0;
  readonly #redactor: Redactor;
  readonly #taken: (name: string) => boolean;
  readonly #log: (message: string) => void;

  constructor(redactor: Redactor, taken: (name: string) => boolean, log: (message: string) => void) {
    this.#redactor = redactor;
    this.#taken = taken;
    this.#log = log;
  }

  /** The names served. */
  get names(): string[] {
    return [...this.#served.keys()];
  }

  get(name: string): ServedTool | undefined {
    return this.#served.get(name);
  }

  /** Lists the upstream's tools again (every page), yielding to the event loop every 8 ms. */
  async refresh(request: UpstreamConnection['request']): Promise<void> {
    const listed: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await request((client) => client.listTools(cursor ? { cursor } : {}));
      listed.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    const served = new Map<string, ServedTool>();
    let slice = performance.now();
    for (const tool of listed) {
      // Only the name is redacted now (calls are routed by it); the rest when a tools/list page is served.
      const name = await this.#redactor.redact(tool.name);
      if (this.#taken(name) || served.has(name)) {
        this.#log(
          `scratchpad proxy: the upstream tool "${name}" has the name of ${this.#taken(name) ? 'a scratchpad tool' : 'another upstream tool (after redaction)'}; it is not served.`,
        );
        continue;
      }
      const addsParameter = !Object.hasOwn(tool.inputSchema.properties ?? {}, SCRATCHPAD_PARAMETER);
      served.set(name, { upstreamName: tool.name, tool, name, addsParameter });
      if (performance.now() - slice > 8) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
    }
    this.#served = served;
    this.#version++;
  }

  /** The upstream side of the merged tools/list: each tool redacted, with the `scratchpad` parameter, when served. */
  pages(): PageSource<Tool> {
    const tools = [...this.#served.values()].map((each) => each.tool);
    const version = String(this.#version);
    return async () => ({
      items: tools,
      version,
      prepare: async (tool: Tool) => ({
        ...(await redactUpstream(servedTool(tool), this.#redactor)),
        name: await this.#redactor.redact(tool.name),
      }),
    });
  }
}

/** An upstream tool as the proxy lists it: everything the upstream said, plus the `scratchpad` parameter. */
function servedTool(tool: Tool): Tool {
  // Task-based execution is not proxied: the call is forwarded as a plain tools/call.
  const { execution: _execution, ...rest } = tool as Tool & { execution?: unknown };
  return Object.hasOwn(tool.inputSchema.properties ?? {}, SCRATCHPAD_PARAMETER)
    ? rest
    : {
        ...rest,
        inputSchema: withScratchpadParameter(tool.inputSchema as JsonSchema) as Tool['inputSchema'],
      };
}
