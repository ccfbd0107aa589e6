import { toOffloadContent } from '../context/offload/offload-content.js';
import {
  createOffloadPolicy,
  type OffloadPolicy,
  type OffloadPolicyOptions,
} from '../context/offload/offload-policy.js';
import { createOffloader } from '../context/offload/offloader.js';
import type { PreviewContext } from '../context/previews/preview-builder.js';
import { buildWholePreview } from '../context/previews/preview-registry.js';
import { ScratchpadError } from '../core/errors.js';
import { formatCount } from '../core/format.js';
import { formatError } from '../core/format-error.js';
import type { JsonObject } from '../core/json.js';
import { describeLifetime } from '../core/lifetime.js';
import { assertValidName } from '../core/names.js';
import type { SessionScratchpad } from '../service/scratchpad.js';
import type { JsonSchema } from './tool.js';
import { TOOL_NAMES } from './tool-names.js';

/** The parameter `wrapTools` adds to every wrapped tool (seed 004). */
export const SCRATCHPAD_PARAMETER = 'scratchpad';

/** A tool of the host application, described by JSON Schema; its result may be any value, bytes or text. */
export interface HostTool {
  name: string;
  description?: string;
  inputSchema: JsonSchema;
  execute(args: Record<string, unknown>, options: { signal?: AbortSignal }): unknown | Promise<unknown>;
}

/** A wrapped tool: the same name, the schema plus the optional `scratchpad` parameter, and a result as text. */
export interface WrappedTool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  execute(args: Record<string, unknown>, options?: WrappedCallOptions): Promise<WrappedResult>;
}

/** Per call: provenance for the stored entry and the past the preview may use. */
export interface WrappedCallOptions {
  turn?: string;
  step?: number;
  context?: PreviewContext;
  signal?: AbortSignal;
}

/** What the model reads back, and what was stored. */
export interface WrappedResult {
  text: string;
  isError: boolean;
  /** The entry holding the full result, when it was stored. */
  entry?: { id: string; name: string };
}

/** Options for {@link wrapTools}. */
export interface WrapToolsOptions {
  session: SessionScratchpad;
  /** The offload policy (or options for one; default: `createOffloadPolicy()`, our default format). */
  policy?: OffloadPolicy | OffloadPolicyOptions;
}

/**
 * Wraps host tools so their results cannot flood the context: every wrapped tool gets an optional `scratchpad`
 * parameter (seed 004) — when the model gives it, the full result is saved under that name and the model gets a
 * short confirmation with a preview — and results above the policy's threshold are stored under `<tool>_<n>` with
 * a synthetic observation instead. A tool that throws becomes an error result; nothing is lost.
 */
export function wrapTools(tools: readonly HostTool[], options: WrapToolsOptions): WrappedTool[] {
  const policy = isPolicy(options.policy)
    ? options.policy
    : createOffloadPolicy({ readTool: TOOL_NAMES.read, ...(options.policy ?? {}) });
  const offloader = createOffloader({ session: options.session, policy });
  return tools.map((tool) => {
    const properties = (tool.inputSchema.properties ?? {}) as JsonObject;
    if (Object.hasOwn(properties, SCRATCHPAD_PARAMETER)) {
      throw new ScratchpadError(
        'INVALID_ARGUMENT',
        `Tool ${tool.name} already has a "${SCRATCHPAD_PARAMETER}" parameter.`,
        {
          hint: 'Rename that parameter, or do not wrap this tool.',
        },
      );
    }
    return {
      name: tool.name,
      description: tool.description ?? '',
      inputSchema: withScratchpadParameter(tool.inputSchema),
      async execute(args, call = {}) {
        const { [SCRATCHPAD_PARAMETER]: target, ...rest } = args ?? {};
        if (target !== undefined && typeof target !== 'string') {
          return {
            isError: true,
            text: `Error (INVALID_ARGUMENT): "${SCRATCHPAD_PARAMETER}" must be an entry name (a string).`,
          };
        }
        let result: unknown;
        try {
          result = await tool.execute(rest, call.signal ? { signal: call.signal } : {});
        } catch (error) {
          return {
            isError: true,
            text: `Error: ${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`,
          };
        }
        try {
          if (target !== undefined)
            return await saveResultAs(
              options.session,
              policy,
              tool.name,
              assertValidName(target),
              result,
              call,
            );
          const outcome = await offloader.process({
            tool: tool.name,
            result,
            ...(call.turn === undefined ? {} : { turn: call.turn }),
            ...(call.step === undefined ? {} : { step: call.step }),
            ...(call.context ? { context: call.context } : {}),
          });
          return outcome.offloaded
            ? {
                text: outcome.text,
                isError: false,
                entry: { id: outcome.entry.id, name: outcome.entry.name },
              }
            : { text: outcome.text, isError: false };
        } catch (error) {
          if (!ScratchpadError.isInstance(error)) throw error;
          return { isError: true, text: formatError(error) };
        }
      },
    };
  });
}

/** `schema` plus the optional `scratchpad` parameter (seed 004), which saves the full result under a name. */
export function withScratchpadParameter(schema: JsonSchema): JsonSchema {
  return {
    ...schema,
    type: 'object',
    properties: {
      ...((schema.properties ?? {}) as JsonObject),
      [SCRATCHPAD_PARAMETER]: {
        type: 'string',
        description: `Optional: save the full result in the scratchpad under this name instead of showing it here; read it later with ${TOOL_NAMES.read}. It is kept for this session (the confirmation says so, or the TTL when the store sets one).`,
      },
    },
  };
}

/** The explicit `scratchpad: NAME` path: store the whole result under NAME, answer with a short confirmation. */
export async function saveResultAs(
  session: SessionScratchpad,
  policy: OffloadPolicy,
  tool: string,
  name: string,
  result: unknown,
  call: WrappedCallOptions,
): Promise<WrappedResult> {
  const content = toOffloadContent(result ?? '');
  if (!content) return { isError: false, text: `${tool} returned nothing; nothing was saved to "${name}".` };
  const { entry } = await session.write(name, content.kind === 'text' ? content.text : content.bytes, {
    kind: content.kind,
    mediaType: content.mediaType,
    metadata: content.metadata,
    source: tool,
    ...(call.turn === undefined ? {} : { turn: call.turn }),
    ...(call.step === undefined ? {} : { step: call.step }),
  });
  const preview = await buildWholePreview(policy.previewFor(tool), {
    kind: content.kind,
    text: content.text,
    bytes: content.bytes,
    ...(content.json === undefined ? {} : { json: content.json }),
    context: call.context ?? {},
  });
  const size =
    entry.kind === 'text'
      ? `${formatCount(entry.chars)} chars, ${formatCount(entry.lines)} lines`
      : `${formatCount(entry.bytes)} bytes`;
  const redactor = session.scratchpad.redactor;
  // The result's metadata and other fields are kept with the entry, which the model reads only as content: shown.
  const metadata =
    Object.keys(content.metadata).length === 0
      ? ''
      : `\nMetadata: ${JSON.stringify(await redactor.redactValue(content.metadata))}`;
  return {
    isError: false,
    entry: { id: entry.id, name: entry.name },
    text: `Saved the result of ${tool} to the scratchpad as "${entry.name}" (${size}; ${describeLifetime(entry, entry.updatedAt)}). Read it with ${policy.readTool} {"name": "${entry.name}"}.${metadata}\nPreview:\n${redactor.redactSync(preview.text)}`,
  };
}

function isPolicy(value: WrapToolsOptions['policy']): value is OffloadPolicy {
  return (
    typeof value === 'object' && value !== null && typeof (value as OffloadPolicy).thresholdFor === 'function'
  );
}
