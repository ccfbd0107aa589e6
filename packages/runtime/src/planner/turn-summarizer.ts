import { formatUnknownError } from 'llm-scratchpad';
import type { SummarizeOptions, Summarizer } from 'llm-scratchpad';
import type { SummarySettings } from '../config/summary-settings.js';
import type { Tier } from '../config/tier.js';
import type { LanguageModel } from '../model/language-model.js';
import type { ModelCallLog } from '../model/model-call.js';
import { createModelSummarizer } from '../summarizer/model-summarizer.js';
import type { TierModels } from '../tiers/tier-models.js';
import type { TurnEvent } from './turn-events.js';

/** What of the turn the summarizer reports to: the log's model calls, the clock, the progress events. */
export interface SummaryTurn {
  record: { model_calls: ModelCallLog[] };
  now: () => number;
  emit: (event: TurnEvent) => void;
}

/**
 * The offload policy's `summarize` for a turn with `[runtime.summaries]` on: the summary is written by the model of
 * `settings.tier`, and each of its requests goes into the turn log's `model_calls` (purpose `summary`), failed
 * ones with their error, and is reported as progress, like every other model request of the turn.
 */
export function turnSummarize(
  settings: SummarySettings,
  tiers: TierModels,
  turn: SummaryTurn,
): SummarizeOptions {
  return {
    summarizer: loggedSummarizer(tiers, settings.tier, turn),
    minBytes: settings.minBytes,
    maxBytes: settings.maxBytes,
    timeoutMs: settings.timeoutMs,
    maxInputTokens: settings.maxInputTokens,
    maxOutputTokens: settings.maxOutputTokens,
  };
}

function loggedSummarizer(tiers: TierModels, tier: Tier, turn: SummaryTurn): Summarizer {
  const { now, emit } = turn;
  const calls = turn.record.model_calls;
  return (request) => {
    const served = tiers.get(tier);
    const entry = {
      purpose: 'summary' as const,
      tier,
      servedBy: served.servedBy,
      provider: served.model.provider,
      modelId: served.model.modelId,
    };
    const logged: LanguageModel = {
      specificationVersion: served.model.specificationVersion,
      provider: served.model.provider,
      modelId: served.model.modelId,
      async doGenerate(options) {
        emit({
          type: 'model-call',
          purpose: 'summary',
          tier,
          provider: entry.provider,
          modelId: entry.modelId,
        });
        const started = now();
        try {
          const response = await served.model.doGenerate(options);
          const latencyMs = now() - started;
          calls.push({ ...entry, ...response.usage, latencyMs });
          emit({
            type: 'model-reply',
            purpose: 'summary',
            tier,
            latencyMs,
            text: response.text,
            toolCalls: 0,
          });
          return response;
        } catch (error) {
          calls.push({
            ...entry,
            inputTokens: 0,
            outputTokens: 0,
            latencyMs: now() - started,
            error: formatUnknownError(error),
          });
          throw error;
        }
      },
    };
    return createModelSummarizer(logged)(request);
  };
}
