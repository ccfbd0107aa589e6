/** The bag-of-words pre-filter with adaptive K (seed 002, ch. 5). */
export {
  type AdaptiveKOptions,
  type AdaptiveKReason,
  type AdaptiveKResult,
  chooseK,
  DEFAULT_K_MAX,
  DEFAULT_K_MIN,
} from './adaptive-k.js';
export {
  AFFINITY_WEIGHT,
  createPrefilter,
  DESCRIPTION_WEIGHT,
  type Prefilter,
  type PrefilterCandidate,
  type PrefilterEntry,
  type PrefilterSelection,
} from './prefilter.js';
export { foldText, STOPWORDS, tokenize } from './tokenize.js';
