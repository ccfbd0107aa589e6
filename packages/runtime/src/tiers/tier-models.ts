import { type ModelOverrides, type ResolveModelOptions, resolveModel } from '../config/resolve-model.js';
import { resolveTier } from '../config/resolve-tier.js';
import { type RuntimeConfig, TIERS, type Tier } from '../config/runtime-config.js';
import type { LanguageModel } from '../model/language-model.js';
import { shippedTierPrompts, type TierPrompts } from './tier-prompts.js';

/** A tier ready to use: the model that serves it and the tier's prompt. */
export interface TierModel {
  /** The tier asked for. */
  tier: Tier;
  /** The configured tier whose section serves it (a missing tier aliases down: wise → middle → fast). */
  servedBy: Tier;
  model: LanguageModel;
  /** The tier's point of view (`prompts/<tier>.md` or its `prompt_file`). */
  prompt: string;
}

/** The three tiers of seed 002, each built on first use. */
export interface TierModels {
  /** The model for `tier`. Throws `CONFIG_INVALID` when its section cannot make one (no API key, …). */
  get(tier: Tier): TierModel;
  /** The next tier above `tier` served by another configured section, if any (auto-escalation of tier). */
  above(tier: Tier): Tier | undefined;
}

/** Options of {@link createTierModels}. */
export interface CreateTierModelsOptions extends ResolveModelOptions {
  prompts: TierPrompts;
  /** `--provider`/`--model`: applied to `overriddenTier` and every tier its section serves. */
  overrides?: ModelOverrides;
  overriddenTier?: Tier;
}

/**
 * The tiers of `config`. Models are built on first use, so a tier that is never asked for (a `wise` section
 * without its API key) costs nothing and breaks nothing.
 */
export function createTierModels(config: RuntimeConfig, options: CreateTierModelsOptions): TierModels {
  const built = new Map<Tier, TierModel>();
  const overriddenSection = options.overrides && resolveTier(config, options.overriddenTier ?? 'fast').tier;
  const env = options.env ? { env: options.env } : {};
  const fetch = options.fetch ? { fetch: options.fetch } : {};
  return {
    get(tier) {
      const existing = built.get(tier);
      if (existing) return existing;
      const servedBy = resolveTier(config, tier).tier;
      const overrides = servedBy === overriddenSection ? options.overrides : undefined;
      const model = resolveModel(config, tier, overrides, { ...env, ...fetch });
      const tierModel = { tier, servedBy, model, prompt: options.prompts[tier] };
      built.set(tier, tierModel);
      return tierModel;
    },
    above(tier) {
      const current = resolveTier(config, tier).tier;
      return TIERS.slice(TIERS.indexOf(tier) + 1).find(
        (higher) => resolveTier(config, higher).tier !== current,
      );
    },
  };
}

/** Every tier served by one model with the shipped prompts (a library caller passing one `model` to `runTurn`). */
export function singleModelTiers(
  model: LanguageModel,
  prompts: TierPrompts = shippedTierPrompts(),
): TierModels {
  return {
    get: (tier) => ({ tier, servedBy: 'fast', model, prompt: prompts[tier] }),
    above: () => undefined,
  };
}
