import type { FakeResponse } from './fake-http-server.js';
import { argumentsText, estimateTokens, type FakeMessageReply, type FakeRequest } from './fake-script.js';

/**
 * A scripted reply as an OpenAI Responses API `response` object (`POST /v1/responses`, non-streaming): a
 * `message` output item with the text, one `function_call` item per tool call.
 */
export function responsesReply(
  request: FakeRequest,
  reply: FakeMessageReply,
  sequence: number,
): FakeResponse {
  const suffix = String(sequence).padStart(6, '0');
  const output: unknown[] = [];
  if (reply.text)
    output.push({
      type: 'message',
      id: `msg_fake${suffix}`,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: reply.text, annotations: [], logprobs: [] }],
    });
  (reply.toolCalls ?? []).forEach((call, index) => {
    output.push({
      type: 'function_call',
      id: `fc_fake${suffix}${index}`,
      call_id: call.id ?? `call_fake${suffix}${index}`,
      name: call.name,
      arguments: argumentsText(call),
      status: 'completed',
    });
  });
  const inputTokens = reply.usage?.inputTokens ?? estimateTokens(JSON.stringify(request.body.input));
  const outputTokens = reply.usage?.outputTokens ?? estimateTokens(JSON.stringify(output));
  const incomplete = reply.finishReason === 'length';
  return {
    status: 200,
    headers: { 'x-request-id': `req_fake${sequence}` },
    delayMs: reply.delayMs,
    json: {
      id: `resp_fake${suffix}`,
      object: 'response',
      created_at: Math.floor(Date.now() / 1000),
      status: incomplete ? 'incomplete' : 'completed',
      error: null,
      incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
      instructions: request.body.instructions ?? null,
      max_output_tokens: request.body.max_output_tokens ?? null,
      model: request.body.model,
      output,
      parallel_tool_calls: true,
      previous_response_id: request.body.previous_response_id ?? null,
      reasoning: { effort: null, summary: null },
      store: true,
      temperature: 1,
      text: { format: { type: 'text' } },
      tool_choice: request.body.tool_choice ?? 'auto',
      tools: request.body.tools ?? [],
      top_p: 1,
      truncation: 'disabled',
      usage: {
        input_tokens: inputTokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: inputTokens + outputTokens,
      },
      user: null,
      metadata: {},
    },
  };
}
