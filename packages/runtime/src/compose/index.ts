/** Compose (seed 002, ch. 12): chains of signed executors, found in the mnestome, for what a model asked for. */
export { type ComposeRequest, compose } from './compose.js';
export { suggestExecutor } from './executor-suggestion.js';
export { type ChainSearch, findChain } from './find-chain.js';
export { satisfiesSignature } from './satisfies-signature.js';
export {
  ABANDONED_SUGGESTION,
  abandonedOutcome,
  composedOutcome,
  type SyntAbandoned,
  type SyntComposed,
  type SyntOutcome,
} from './synt-outcome.js';
