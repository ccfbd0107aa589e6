import { type FakeResponse, type FakeServer, startFakeHttpServer } from './fake-http-server.js';
import { responsesReply } from './fake-openai-responses.js';
import {
  argumentsText,
  estimateTokens,
  type FakeMessageReply,
  type FakeRequest,
  type FakeScriptStep,
  resolveReply,
} from './fake-script.js';

/** Options of {@link startFakeOpenAI}. */
export interface FakeOpenAIOptions {
  /** Models listed by `/v1/models`. */
  models?: string[];
  /** When set, requests must carry `Authorization: Bearer <apiKey>` or get OpenAI's 401. */
  apiKey?: string;
}

/**
 * A fake OpenAI-compatible server: `POST /v1/chat/completions` and `POST /v1/responses` (non-streaming) and
 * `GET /v1/models`, with
 * OpenAI's response and error shapes. Each completion request takes the next step of `script`; `baseURL` ends
 * in `/v1`, as the `openai` client expects.
 */
export function startFakeOpenAI(
  script: readonly FakeScriptStep[],
  options: FakeOpenAIOptions = {},
): Promise<FakeServer> {
  let completions = 0;
  return startFakeHttpServer(
    async (request, next) => {
      if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
        return openAIError(401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
      }
      if (request.method === 'GET' && request.path === '/v1/models') {
        return {
          status: 200,
          json: {
            object: 'list',
            data: (options.models ?? []).map((id) => ({
              id,
              object: 'model',
              created: 1_744_316_542,
              owned_by: 'system',
            })),
          },
        };
      }
      const responses = request.path === '/v1/responses';
      if (request.method !== 'POST' || (request.path !== '/v1/chat/completions' && !responses))
        return undefined;
      if (typeof request.body?.model !== 'string') {
        return openAIError(400, 'you must provide a model parameter', 'invalid_request_error');
      }
      if (responses && request.body.input === undefined) {
        return openAIError(
          400,
          "Missing required parameter: 'input'.",
          'invalid_request_error',
          'missing_required_parameter',
        );
      }
      if (!responses && !Array.isArray(request.body.messages)) {
        return openAIError(
          400,
          "Missing required parameter: 'messages'.",
          'invalid_request_error',
          'missing_required_parameter',
        );
      }
      if (request.body.stream === true) {
        return openAIError(
          400,
          'This fake server does not stream: send stream: false.',
          'invalid_request_error',
        );
      }
      completions += 1;
      const step = next();
      if (step === undefined) {
        return openAIError(
          500,
          `fake OpenAI: the script has no reply left for completion request ${completions}`,
          'server_error',
        );
      }
      const reply = await resolveReply(step, request);
      if ('error' in reply)
        return openAIError(
          reply.error.status,
          reply.error.message,
          reply.error.type ?? errorType(reply.error.status),
        );
      if ('body' in reply) return { status: reply.status ?? 200, json: reply.body };
      return responses
        ? responsesReply(request, reply, completions)
        : completion(request, reply, completions);
    },
    script,
    '/v1',
  );
}

function completion(request: FakeRequest, reply: FakeMessageReply, sequence: number): FakeResponse {
  const text = reply.text ?? '';
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_fake${String(sequence).padStart(4, '0')}${index}`,
    type: 'function',
    function: { name: call.name, arguments: argumentsText(call) },
  }));
  const promptTokens = reply.usage?.inputTokens ?? estimateTokens(JSON.stringify(request.body.messages));
  const completionTokens =
    reply.usage?.outputTokens ?? estimateTokens(text + JSON.stringify(toolCalls.length ? toolCalls : ''));
  const finishReason =
    reply.finishReason === 'length'
      ? 'length'
      : (reply.finishReason ?? (toolCalls.length ? 'tool-calls' : 'stop')) === 'tool-calls'
        ? 'tool_calls'
        : 'stop';
  return {
    status: 200,
    headers: { 'x-request-id': `req_fake${sequence}` },
    delayMs: reply.delayMs,
    json: {
      id: `chatcmpl-fake${String(sequence).padStart(6, '0')}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: request.body.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: text === '' && toolCalls.length ? null : text,
            refusal: null,
            annotations: [],
            ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
          },
          logprobs: null,
          finish_reason: finishReason,
        },
      ],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: 0,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      },
      service_tier: 'default',
      system_fingerprint: 'fp_fake',
    },
  };
}

function openAIError(
  status: number,
  message: string,
  type: string,
  code: string | null = null,
): FakeResponse {
  return { status, json: { error: { message, type, param: null, code } } };
}

function errorType(status: number): string {
  if (status === 429) return 'requests';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}
