/** The tiers of seed 002 (fast, middle, wise): a model and a prompt each, built on first use. */
export {
  type CreateTierModelsOptions,
  createTierModels,
  singleModelTiers,
  type TierModel,
  type TierModels,
} from './tier-models.js';
export { loadTierPrompts, shippedPromptsDir, shippedTierPrompts, type TierPrompts } from './tier-prompts.js';
