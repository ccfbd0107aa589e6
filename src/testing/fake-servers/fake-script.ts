import type { IncomingHttpHeaders } from 'node:http';

/** A request a fake server received, with its JSON body parsed (`undefined` when there was none). */
export interface FakeRequest {
  method: string;
  /** Path without the query string, e.g. `/api/chat`. */
  path: string;
  headers: IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are whatever the client sent; tests index into them
  body: any;
}

/** A tool call in a scripted reply. `arguments` as a string is sent verbatim (to script malformed JSON). */
export interface FakeToolCall {
  id?: string;
  name: string;
  arguments: Record<string, unknown> | string;
}

/** A scripted answer in the provider's own shape: text, reasoning and tool calls. */
export interface FakeMessageReply {
  text?: string;
  /** Ollama `message.thinking` (sent only when the request asked to think). */
  thinking?: string;
  toolCalls?: FakeToolCall[];
  /** Defaults to `tool-calls` when there are tool calls, else `stop`. */
  finishReason?: 'stop' | 'length' | 'tool-calls';
  /** Defaults to an estimate of four characters per token. */
  usage?: { inputTokens?: number; outputTokens?: number };
  /** Wait this long before answering (to exercise client timeouts). */
  delayMs?: number;
}

/** An HTTP error answer in the provider's error shape. */
export interface FakeErrorReply {
  error: { status: number; message: string; type?: string };
}

/** A verbatim JSON body (a recorded response, a deliberately odd one). */
export interface FakeBodyReply {
  body: unknown;
  status?: number;
}

/** One scripted reply: plain text, a message, an HTTP error, or a verbatim body. */
export type FakeReply = string | FakeMessageReply | FakeErrorReply | FakeBodyReply;

/** One step of a script: a reply, or a function of the request received. */
export type FakeScriptStep = FakeReply | ((request: FakeRequest) => FakeReply | Promise<FakeReply>);

/** The reply of `step` to `request`, normalized to one of the object shapes. */
export async function resolveReply(
  step: FakeScriptStep,
  request: FakeRequest,
): Promise<FakeMessageReply | FakeErrorReply | FakeBodyReply> {
  const reply = typeof step === 'function' ? await step(request) : step;
  return typeof reply === 'string' ? { text: reply } : reply;
}

/** Four characters per token: deterministic usage figures for scripted replies. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The arguments of a scripted tool call as JSON text. */
export function argumentsText(call: FakeToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}
