import type { Summarizer } from 'llm-scratchpad';
import type { LanguageModel } from '../model/language-model.js';

/** The instructions a summarizing model gets. */
export const SUMMARIZER_SYSTEM_PROMPT = [
  'You summarize one tool output for an agent that will not see the output itself.',
  'Say what the output is (its kind, size and shape), then what matters in it: errors, failures, counts,',
  'unusual values, and the names, paths, ids and numbers the agent is likely to need, copied exactly.',
  'Plain text, no preamble, at most a short paragraph and a few bullet lines. Do not invent anything.',
].join(' ');

/**
 * A {@link Summarizer} over a runtime model: the `fast` tier (`tiers.get('fast').model`) or any provider built
 * with `createOllama`, `createOpenAICompatible` or `createAnthropic`. One request without tools, the output as the
 * user message (with the task when known), `maxOutputTokens` and the time budget's abort signal passed through.
 *
 * ```ts
 * const policy = createOffloadPolicy({ summarize: { summarizer: createModelSummarizer(tiers.get('fast').model) } });
 * ```
 */
export function createModelSummarizer(model: LanguageModel, options: { system?: string } = {}): Summarizer {
  return async (request) => {
    const lines = [
      request.task ? `The agent's task: ${request.task}\n` : '',
      request.sampled
        ? `The tool output (${request.chars} characters; its head and tail, the middle left out):`
        : `The tool output (${request.chars} characters):`,
      request.text,
    ];
    const result = await model.doGenerate({
      system: options.system ?? SUMMARIZER_SYSTEM_PROMPT,
      messages: [{ role: 'user', content: lines.join('\n') }],
      maxOutputTokens: request.maxOutputTokens,
      temperature: 0,
      signal: request.signal,
    });
    return result.text;
  };
}
