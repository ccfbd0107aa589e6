import type {
  FinishReason,
  GenerateOptions,
  GenerateResult,
  LanguageModel,
  ModelMessage,
  ModelToolCall,
} from './language-model.js';

/** A scripted reply: plain text, or a structured reply. */
export type ScriptedReply = string | ScriptedResponse;

/** A structured scripted reply. Tool calls without an `id` get `call_<call>_<index>`. */
export interface ScriptedResponse {
  text?: string;
  toolCalls?: Array<{ id?: string; name: string; arguments?: Record<string, unknown> }>;
  /** Defaults to `tool-calls` when there are tool calls, else `stop`. */
  finishReason?: FinishReason;
  /** Defaults to an estimate of four characters per token. */
  usage?: { inputTokens: number; outputTokens: number };
  /** When set, the call throws this instead of answering (to replay a provider failure). */
  throws?: unknown;
}

/** One step of the script: a reply, or a function of the options received and the call number (1-based). */
export type ScriptedStep =
  | ScriptedReply
  | ((options: GenerateOptions, call: number) => ScriptedReply | Promise<ScriptedReply>);

/** A {@link LanguageModel} that replays a script and records what it received. */
export interface ScriptedModel extends LanguageModel {
  /** The options of every call so far, with `messages` and `tools` copied at call time. */
  readonly calls: readonly GenerateOptions[];
  /** How many steps are left. */
  readonly remaining: number;
}

/** Options for {@link createScriptedModel}. */
export interface ScriptedModelConfig {
  provider?: string;
  modelId?: string;
}

/**
 * An in-process model for tests and benchmarks: each call answers with the next step of `steps`, with no
 * latency. A call beyond the end of the script throws a plain `Error` (a bug in the test, not a provider failure).
 */
export function createScriptedModel(
  steps: readonly ScriptedStep[],
  config: ScriptedModelConfig = {},
): ScriptedModel {
  const queue = [...steps];
  const calls: GenerateOptions[] = [];
  return {
    specificationVersion: 'v1',
    provider: config.provider ?? 'scripted',
    modelId: config.modelId ?? 'scripted',
    calls,
    get remaining() {
      return queue.length;
    },
    async doGenerate(options: GenerateOptions): Promise<GenerateResult> {
      calls.push(snapshot(options));
      const call = calls.length;
      if (options.signal?.aborted) throw options.signal.reason;
      const step = queue.shift();
      if (step === undefined) {
        throw new Error(
          `Scripted model: no reply left for call ${call} (the script has ${steps.length} steps).`,
        );
      }
      const reply = typeof step === 'function' ? await step(options, call) : step;
      return toResult(typeof reply === 'string' ? { text: reply } : reply, options, call);
    },
  };
}

function toResult(reply: ScriptedResponse, options: GenerateOptions, call: number): GenerateResult {
  if (reply.throws !== undefined) throw reply.throws;
  const text = reply.text ?? '';
  const toolCalls: ModelToolCall[] = (reply.toolCalls ?? []).map((toolCall, index) => ({
    id: toolCall.id ?? `call_${call}_${index}`,
    name: toolCall.name,
    arguments: toolCall.arguments ?? {},
  }));
  return {
    text,
    toolCalls,
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool-calls' : 'stop'),
    usage: reply.usage ?? {
      inputTokens: estimateTokens((options.system ?? '') + options.messages.map(messageText).join('')),
      outputTokens: estimateTokens(
        text + toolCalls.map((toolCall) => JSON.stringify(toolCall.arguments)).join(''),
      ),
    },
    raw: reply,
  };
}

function messageText(message: ModelMessage): string {
  if (message.role === 'assistant' && message.toolCalls)
    return message.content + JSON.stringify(message.toolCalls);
  return message.content;
}

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Copies the parts a caller may mutate after the call (the planner appends to its history array). */
function snapshot(options: GenerateOptions): GenerateOptions {
  const { signal, ...rest } = options;
  const copy = structuredClone(rest) as GenerateOptions;
  if (signal) copy.signal = signal;
  return copy;
}
