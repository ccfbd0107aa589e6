import { formatUnknownError } from 'llm-scratchpad';
import type { GenerateOptions, GenerateResult } from '../model/language-model.js';
import type { ModelCallPurpose } from '../model/model-call.js';
import type { TierModel } from '../tiers/tier-models.js';
import type { TurnContext } from './turn-context.js';

/**
 * One request to a tier's model for the turn: announced, timed, recorded in `model_calls` (failed ones too, with
 * their error) and reported. Rethrows the provider's error.
 */
export async function callModel(
  turn: TurnContext,
  tier: TierModel,
  purpose: ModelCallPurpose,
  request: Omit<GenerateOptions, 'signal' | 'think'>,
): Promise<GenerateResult & { latencyMs: number }> {
  const { model } = tier;
  turn.emit({
    type: 'model-call',
    purpose,
    tier: tier.tier,
    provider: model.provider,
    modelId: model.modelId,
  });
  const started = turn.now();
  const entry = {
    purpose,
    tier: tier.tier,
    servedBy: tier.servedBy,
    provider: model.provider,
    modelId: model.modelId,
  };
  try {
    const response = await model.doGenerate({
      ...request,
      ...(turn.options.think === undefined ? {} : { think: turn.options.think }),
      ...(turn.options.signal ? { signal: turn.options.signal } : {}),
    });
    const latencyMs = turn.now() - started;
    turn.record.model_calls.push({ ...entry, ...response.usage, latencyMs });
    turn.emit({
      type: 'model-reply',
      purpose,
      tier: tier.tier,
      latencyMs,
      text: response.text,
      toolCalls: response.toolCalls.length,
    });
    return { ...response, latencyMs };
  } catch (error) {
    turn.record.model_calls.push({
      ...entry,
      inputTokens: 0,
      outputTokens: 0,
      latencyMs: turn.now() - started,
      error: formatUnknownError(error),
    });
    throw error;
  }
}
