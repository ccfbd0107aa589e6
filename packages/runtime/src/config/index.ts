/** The runtime's configuration: `config.toml`, tiers with aliasing, and model resolution. */
export { configFilePath, type Environment } from 'llm-scratchpad/extension';
export { type LoadRuntimeConfigOptions, loadRuntimeConfig } from './load-runtime-config.js';
export { parseHybridSettings } from './parse-hybrid-settings.js';
export { parseJudgeSettings } from './parse-judge-settings.js';
export { parseRuntimeConfig } from './parse-runtime-config.js';
export { parseSummarySettings } from './parse-summary-settings.js';
export { type ModelOverrides, type ResolveModelOptions, resolveModel } from './resolve-model.js';
export { type ResolvedTier, resolveTier } from './resolve-tier.js';
export {
  DEFAULT_FAST_TIER,
  DEFAULT_MODELS,
  defaultRuntimeConfig,
  PROVIDER_ALIASES,
  type ProviderName,
  RUNTIME_DEFAULTS,
  type RuntimeConfig,
  type RuntimeMode,
  TIERS,
  type Tier,
  type TierSettings,
} from './runtime-config.js';
export {
  defaultSummarySettings,
  MAX_SUMMARY_BYTES,
  MAX_SUMMARY_TIMEOUT_MS,
  type SummarySettings,
} from './summary-settings.js';
