export { renderDefaultObservation } from './default-observation.js';
export { EntryNamer } from './entry-namer.js';
export { metnosNote, renderMetnosObservation } from './metnos-observation.js';
export { renderNamedObservation } from './named-observation.js';
export type { ObservationInput, RenderedObservation } from './observation-input.js';
export { measureContent, type OffloadContent, toOffloadContent } from './offload-content.js';
export {
  createOffloadPolicy,
  DEFAULT_EXEMPT_TOOLS,
  FORMAT_DEFAULTS,
  type ObservationFormat,
  type OffloadPolicy,
  type OffloadPolicyOptions,
  type SizeMeasure,
  type ToolOffloadRule,
} from './offload-policy.js';
export {
  createOffloader,
  type InlineReason,
  type Offloader,
  type OffloaderConfig,
  type OffloadOutcome,
  type OffloadRequest,
} from './offloader.js';
export {
  createSummaryCache,
  type SummarizeOptions,
  type SummarizeRequest,
  type Summarizer,
  type SummaryCache,
  type SummaryOutcome,
} from './summary-preview.js';
