import type { JsonObject } from 'llm-scratchpad';

/**
 * The language-model spec the planner is written against: one small interface per provider, in the style of the
 * AI SDK's provider spec. Callers go through the planner; `doGenerate` is the provider's single entry point.
 */
export interface LanguageModel {
  readonly specificationVersion: 'v1';
  /** `ollama`, `openai`, `anthropic`, `scripted`, … */
  readonly provider: string;
  readonly modelId: string;
  /** One round trip to the model: the whole history in, one assistant reply (text and/or tool calls) out. */
  doGenerate(options: GenerateOptions): Promise<GenerateResult>;
}

/** What one call to {@link LanguageModel.doGenerate} sends. */
export interface GenerateOptions {
  /** The system prompt, sent the way each provider expects it (a message, or Anthropic's separate field). */
  system?: string;
  messages: ModelMessage[];
  /** Tools the model may call; each `parameters` JSON Schema goes to the provider as is. */
  tools?: ModelToolDefinition[];
  /** Ollama's `think` flag (reasoning on or off); other providers ignore it. */
  think?: boolean;
  temperature?: number;
  maxOutputTokens?: number;
  /**
   * Structured output: the reply's text must be JSON matching `schema` (Ollama `format`, OpenAI `response_format`
   * json_schema, Anthropic `output_config.format`). Callers still validate what comes back.
   */
  responseFormat?: ResponseFormat;
  signal?: AbortSignal;
}

/** A JSON Schema the reply must follow, with a name for the providers that want one. */
export interface ResponseFormat {
  /** `[A-Za-z0-9_-]{1,64}`. */
  name: string;
  schema: JsonObject;
}

/** One message of the conversation history, provider-neutral. */
export type ModelMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ModelToolCall[] }
  | { role: 'tool'; toolCallId: string; toolName: string; content: string; isError?: boolean };

/** A tool offered to the model. */
export interface ModelToolDefinition {
  name: string;
  description: string;
  /** A JSON Schema object describing the arguments, passed to the provider unchanged. */
  parameters: JsonObject;
}

/** A tool call the model made. `id` links it to the `tool` message that carries its result. */
export interface ModelToolCall {
  id: string;
  name: string;
  /**
   * The parsed arguments. When the provider sent arguments that are not a JSON object, they are
   * `{ [INVALID_TOOL_ARGUMENTS]: { error, raw } }` instead: see {@link invalidToolArguments}.
   */
  arguments: Record<string, unknown>;
}

/** Why the model stopped. */
export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'error' | 'other';

/** What one call to {@link LanguageModel.doGenerate} returns. */
export interface GenerateResult {
  text: string;
  toolCalls: ModelToolCall[];
  finishReason: FinishReason;
  usage: { inputTokens: number; outputTokens: number };
  /** The provider's response body, for the turn log. */
  raw?: unknown;
}

/** Key of the arguments of a tool call whose arguments could not be parsed as a JSON object. */
export const INVALID_TOOL_ARGUMENTS = '__invalid_arguments__';

/** Why a tool call's arguments could not be parsed, and the text the model sent. */
export interface InvalidToolArguments {
  error: string;
  raw: string;
}

/** The parse failure carried by `call`'s arguments, or `undefined` when they were a valid JSON object. */
export function invalidToolArguments(
  call: Pick<ModelToolCall, 'arguments'>,
): InvalidToolArguments | undefined {
  const value = call.arguments[INVALID_TOOL_ARGUMENTS];
  if (typeof value !== 'object' || value === null) return undefined;
  const { error, raw } = value as Record<string, unknown>;
  return typeof error === 'string' && typeof raw === 'string' ? { error, raw } : undefined;
}
