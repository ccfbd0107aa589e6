import type { RuntimeConfig, Tier, TierSettings } from './runtime-config.js';

/** The settings that serve a requested tier, and which configured tier they come from. */
export interface ResolvedTier {
  /** The tier asked for. */
  requested: Tier;
  /** The tier whose section is used: the requested one, or a lower one it aliases to. */
  tier: Tier;
  settings: TierSettings;
}

/** The settings for `tier`: a missing `wise` aliases to `middle`, a missing `middle` to `fast`. Never throws. */
export function resolveTier(config: RuntimeConfig, tier: Tier): ResolvedTier {
  const order: Tier[] =
    tier === 'wise' ? ['wise', 'middle', 'fast'] : tier === 'middle' ? ['middle', 'fast'] : ['fast'];
  for (const candidate of order) {
    const settings = config.llm[candidate];
    if (settings) return { requested: tier, tier: candidate, settings };
  }
  return { requested: tier, tier: 'fast', settings: config.llm.fast };
}
