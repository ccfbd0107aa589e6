import { z } from 'zod';
import { ScratchpadError } from '../core/errors.js';
import { errorPayload, formatError } from '../core/format-error.js';
import type { JsonObject } from '../core/json.js';
import type { Redactor } from '../core/redaction/redactor.js';
import type { SessionScratchpad } from '../service/scratchpad.js';
import type { AnthropicNativeTool } from './adapters/anthropic-shapes.js';

/** A JSON Schema object as sent to a model provider. */
export type JsonSchema = JsonObject;

/** What a tool sees of the world when it runs. */
export interface ToolContext {
  /** The session the tool acts on. */
  session: SessionScratchpad;
  /** The current turn and step, when an agent loop runs the tool (used for provenance and turn isolation). */
  turn?: string;
  step?: number;
  signal?: AbortSignal;
  /**
   * Largest content one reply may carry (the MCP server sets it below its reply limit): read tools refuse a
   * larger slice before reading it, naming the entry's size and the call that fits.
   */
  maxReplyBytes?: number;
}

/** What a tool returns: the text the model reads, whether it is an error, and optional structured data. */
export interface ToolOutput {
  text: string;
  isError?: boolean;
  data?: { [key: string]: unknown };
}

/**
 * One tool offered to a model. `parameters` validates input (zod 4); `inputSchema`, when given, is the exact
 * JSON Schema to show the model (presets that must reproduce a seed's schema byte for byte set it).
 */
// biome-ignore lint/suspicious/noExplicitAny: a list of tools mixes input types; each tool validates its own input.
export interface ScratchpadTool<Input = any> {
  readonly name: string;
  readonly description: string;
  readonly parameters: z.ZodType<Input>;
  readonly inputSchema?: JsonSchema;
  /** A native Anthropic tool definition to send instead of a custom tool (e.g. `{type: 'memory_20250818', name: 'memory'}`). */
  readonly anthropicDefinition?: AnthropicNativeTool;
  execute(input: Input, context: ToolContext): Promise<ToolOutput>;
}

/** Identity helper that keeps the input type. */
export function defineTool<Input>(tool: ScratchpadTool<Input>): ScratchpadTool<Input> {
  return tool;
}

/** The JSON Schema a model sees for `tool`'s parameters. */
export function toolJsonSchema(tool: ScratchpadTool): JsonSchema {
  if (tool.inputSchema) return tool.inputSchema;
  const schema = z.toJSONSchema(tool.parameters, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return cleanSchema(schema) as JsonSchema;
}

/** Drops `$schema` and the ±2^53 bounds zod adds to integers: noise to a model. */
function cleanSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cleanSchema);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === '$schema') continue;
    if ((key === 'minimum' || key === 'maximum') && Math.abs(item as number) === Number.MAX_SAFE_INTEGER)
      continue;
    out[key] = cleanSchema(item);
  }
  return out;
}

/**
 * Runs a tool on raw model input: validates it, executes, and turns every `ScratchpadError` (and invalid
 * input) into an error result that says what went wrong and what to try instead; the output's secrets are
 * redacted (the session's `redaction.view`, on by default), since the model reads it. Bugs still throw.
 */
export async function runTool(
  tool: ScratchpadTool,
  rawInput: unknown,
  context: ToolContext,
): Promise<ToolOutput> {
  return redactToolOutput(
    await runToolUnredacted(tool, rawInput, context),
    context.session.scratchpad.redactor,
  );
}

/** The output with its text and every string of its data redacted. */
async function redactToolOutput(output: ToolOutput, redactor: Redactor): Promise<ToolOutput> {
  if (!redactor.enabled) return output;
  return {
    ...output,
    text: await redactor.redact(output.text),
    ...(output.data === undefined ? {} : { data: await redactor.redactValue(output.data) }),
  };
}

/**
 * {@link runTool} without the redaction, for a caller that keeps the exact output (the runtime pipes a step's
 * value into later steps) and redacts what it shows the model itself.
 */
export async function runToolUnredacted(
  tool: ScratchpadTool,
  rawInput: unknown,
  context: ToolContext,
): Promise<ToolOutput> {
  const parsed = tool.parameters.safeParse(rawInput ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'input'}: ${issue.message}`)
      .join('; ');
    return {
      isError: true,
      text: `Invalid arguments for ${tool.name}: ${problems}. Expected parameters: ${JSON.stringify(toolJsonSchema(tool).properties ?? {})}`,
      data: { ok: false, error: 'INVALID_ARGUMENT', message: problems },
    };
  }
  try {
    return await tool.execute(parsed.data, context);
  } catch (error) {
    if (ScratchpadError.isInstance(error)) return errorOutput(error);
    throw error;
  }
}

/** The model-facing form of a `ScratchpadError`: {@link formatError}'s text, `{ok: false, error, message, hint}` data. */
export function errorOutput(error: ScratchpadError): ToolOutput {
  const { code, ...rest } = errorPayload(error);
  return { isError: true, text: formatError(error), data: { ok: false, error: code, ...rest } };
}
