import { type FakeResponse, type FakeServer, startFakeHttpServer } from './fake-http-server.js';
import {
  estimateTokens,
  type FakeMessageReply,
  type FakeRequest,
  type FakeScriptStep,
  resolveReply,
} from './fake-script.js';

/** Options of {@link startFakeOllama}. */
export interface FakeOllamaOptions {
  /** Models listed by `/api/tags`; when given, a chat for another model gets Ollama's 404. */
  models?: string[];
  /** What `/api/version` reports (default `0.12.6`). */
  version?: string;
}

/**
 * A fake Ollama server: `POST /api/chat` (non-streaming JSON, or NDJSON when `stream` is not `false`, as Ollama
 * defaults), `GET /api/tags`, `GET /api/version`. Each chat request takes the next step of `script`; when the
 * script is used up the server answers 500 with Ollama's `{ error }` shape.
 */
export function startFakeOllama(
  script: readonly FakeScriptStep[],
  options: FakeOllamaOptions = {},
): Promise<FakeServer> {
  let chats = 0;
  return startFakeHttpServer(async (request, next) => {
    if (request.method === 'GET' && request.path === '/api/version') {
      return { status: 200, json: { version: options.version ?? '0.12.6' } };
    }
    if (request.method === 'GET' && request.path === '/api/tags') {
      return { status: 200, json: { models: (options.models ?? []).map(listedModel) } };
    }
    if (request.method !== 'POST' || request.path !== '/api/chat') return undefined;
    if (typeof request.body?.model !== 'string' || request.body.model === '') {
      return { status: 400, json: { error: 'model is required' } };
    }
    if (options.models && !options.models.includes(request.body.model)) {
      return {
        status: 404,
        json: { error: `model "${request.body.model}" not found, try pulling it first` },
      };
    }
    chats += 1;
    const step = next();
    if (step === undefined) {
      return {
        status: 500,
        json: { error: `fake Ollama: the script has no reply left for chat request ${chats}` },
      };
    }
    const reply = await resolveReply(step, request);
    if ('error' in reply) return { status: reply.error.status, json: { error: reply.error.message } };
    if ('body' in reply) return { status: reply.status ?? 200, json: reply.body };
    return chatResponse(request, reply);
  }, script);
}

function chatResponse(request: FakeRequest, reply: FakeMessageReply): FakeResponse {
  const text = reply.text ?? '';
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    ...(call.id ? { id: call.id } : {}),
    function: { index, name: call.name, arguments: call.arguments },
  }));
  const thinking = request.body.think && reply.thinking ? { thinking: reply.thinking } : {};
  const promptTokens =
    reply.usage?.inputTokens ?? estimateTokens(JSON.stringify(request.body.messages ?? []));
  const evalTokens =
    reply.usage?.outputTokens ??
    estimateTokens(text + (reply.thinking ?? '') + JSON.stringify(toolCalls.length ? toolCalls : ''));
  const model = request.body.model as string;
  const createdAt = new Date().toISOString();
  const final = {
    model,
    created_at: createdAt,
    message: {
      role: 'assistant',
      content: text,
      ...thinking,
      ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
    },
    done_reason: reply.finishReason === 'length' ? 'length' : 'stop',
    done: true,
    total_duration: 1_534_201_000,
    load_duration: 21_334_000,
    prompt_eval_count: promptTokens,
    prompt_eval_duration: 180_227_000,
    eval_count: evalTokens,
    eval_duration: 1_301_905_000,
  };
  if (request.body.stream === false) return { status: 200, json: final, delayMs: reply.delayMs };
  // Streaming: the content and tool calls arrive in chunks, then a final chunk carries done and the metrics.
  const chunks: unknown[] = [];
  if (thinking.thinking)
    chunks.push({
      model,
      created_at: createdAt,
      message: { role: 'assistant', content: '', ...thinking },
      done: false,
    });
  if (text)
    chunks.push({ model, created_at: createdAt, message: { role: 'assistant', content: text }, done: false });
  if (toolCalls.length) {
    chunks.push({
      model,
      created_at: createdAt,
      message: { role: 'assistant', content: '', tool_calls: toolCalls },
      done: false,
    });
  }
  chunks.push({ ...final, message: { role: 'assistant', content: '' } });
  return {
    status: 200,
    text: `${chunks.map((chunk) => JSON.stringify(chunk)).join('\n')}\n`,
    contentType: 'application/x-ndjson',
    delayMs: reply.delayMs,
  };
}

function listedModel(name: string) {
  return {
    name,
    model: name,
    modified_at: '2025-10-01T09:12:44.392651Z',
    size: 5_225_387_923,
    digest: '500a1f067a9f782620b40bee6f7b0c89e17ae61f686b92c24933e4ca4b2b8b41',
    details: {
      parent_model: '',
      format: 'gguf',
      family: name.split(':')[0] ?? name,
      families: [name.split(':')[0] ?? name],
      parameter_size: '8.2B',
      quantization_level: 'Q4_K_M',
    },
  };
}
