import { type FakeResponse, type FakeServer, startFakeHttpServer } from './fake-http-server.js';
import {
  estimateTokens,
  type FakeMessageReply,
  type FakeRequest,
  type FakeScriptStep,
  resolveReply,
} from './fake-script.js';

/** Options of {@link startFakeAnthropic}. */
export interface FakeAnthropicOptions {
  /** Models listed by `/v1/models`. */
  models?: string[];
  /** When set, requests must carry it (`x-api-key`, or `Authorization: Bearer`) or get Anthropic's 401. */
  apiKey?: string;
}

/**
 * A fake Anthropic Messages API: `POST /v1/messages` (non-streaming) and `GET /v1/models`, with Anthropic's
 * message, `tool_use` block, `stop_reason`, usage and error shapes. Each message request takes the next step
 * of `script`.
 */
export function startFakeAnthropic(
  script: readonly FakeScriptStep[],
  options: FakeAnthropicOptions = {},
): Promise<FakeServer> {
  let messages = 0;
  return startFakeHttpServer(async (request, next) => {
    if (options.apiKey !== undefined && !authorized(request, options.apiKey)) {
      return anthropicError(401, 'invalid x-api-key', 'authentication_error');
    }
    if (request.method === 'GET' && request.path === '/v1/models') {
      const data = (options.models ?? []).map((id) => ({
        type: 'model',
        id,
        display_name: id,
        created_at: '2025-10-15T00:00:00Z',
      }));
      return {
        status: 200,
        json: { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null },
      };
    }
    if (request.method !== 'POST' || request.path !== '/v1/messages') return undefined;
    for (const field of ['model', 'max_tokens', 'messages']) {
      if (request.body?.[field] === undefined)
        return anthropicError(400, `${field}: Field required`, 'invalid_request_error');
    }
    if (request.body.stream === true) {
      return anthropicError(
        400,
        'This fake server does not stream: send stream: false.',
        'invalid_request_error',
      );
    }
    messages += 1;
    const step = next();
    if (step === undefined) {
      return anthropicError(
        500,
        `fake Anthropic: the script has no reply left for message request ${messages}`,
        'api_error',
      );
    }
    const reply = await resolveReply(step, request);
    if ('error' in reply)
      return anthropicError(
        reply.error.status,
        reply.error.message,
        reply.error.type ?? errorType(reply.error.status),
      );
    if ('body' in reply) return { status: reply.status ?? 200, json: reply.body };
    return message(request, reply, messages);
  }, script);
}

function message(request: FakeRequest, reply: FakeMessageReply, sequence: number): FakeResponse {
  const id = String(sequence).padStart(4, '0');
  const content: unknown[] = [];
  if (reply.text) content.push({ type: 'text', text: reply.text, citations: null });
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    content.push({
      type: 'tool_use',
      id: call.id ?? `toolu_fake${id}${index}`,
      name: call.name,
      input: typeof call.arguments === 'string' ? JSON.parse(call.arguments) : call.arguments,
      caller: { type: 'direct' },
    });
  }
  const finish = reply.finishReason ?? ((reply.toolCalls ?? []).length ? 'tool-calls' : 'stop');
  const inputTokens =
    reply.usage?.inputTokens ??
    estimateTokens(JSON.stringify([request.body.system ?? '', request.body.messages]));
  const outputTokens = reply.usage?.outputTokens ?? estimateTokens(JSON.stringify(content));
  return {
    status: 200,
    headers: { 'request-id': `req_fake${id}` },
    delayMs: reply.delayMs,
    json: {
      id: `msg_fake${id}`,
      type: 'message',
      role: 'assistant',
      model: request.body.model,
      content,
      stop_reason: finish === 'tool-calls' ? 'tool_use' : finish === 'length' ? 'max_tokens' : 'end_turn',
      stop_sequence: null,
      stop_details: null,
      container: null,
      diagnostics: null,
      usage: {
        input_tokens: inputTokens,
        output_tokens: outputTokens,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
        server_tool_use: null,
        service_tier: 'standard',
        inference_geo: null,
        output_tokens_details: null,
        speed: null,
      },
    },
  };
}

function authorized(request: FakeRequest, apiKey: string): boolean {
  return request.headers['x-api-key'] === apiKey || request.headers.authorization === `Bearer ${apiKey}`;
}

function anthropicError(status: number, messageText: string, type: string): FakeResponse {
  return {
    status,
    headers: { 'request-id': 'req_fake_error' },
    json: { type: 'error', error: { type, message: messageText }, request_id: 'req_fake_error' },
  };
}

function errorType(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    529: 'overloaded_error',
  };
  return types[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}
