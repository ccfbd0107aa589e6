export { binaryPreview } from './binary-preview.js';
export { type ContentSample, type SampledLine, type SampleOptions, sampleContent } from './content-sample.js';
export {
  type FirstLastLinesPreviewOptions,
  firstLastLinesPreview,
  splitLines,
} from './first-last-lines-preview.js';
export { type HeadPreviewOptions, headPreview } from './head-preview.js';
export { type HeadTailPreviewOptions, headTailPreview } from './head-tail-preview.js';
export {
  addSeenIdentifiers,
  IDENTIFIER_PATTERN,
  identifierForms,
  identifiersIn,
  MIN_IDENTIFIER_LENGTH,
} from './identifiers.js';
export { type JsonStructurePreviewOptions, jsonStructurePreview } from './json-structure-preview.js';
export { type LineSignal, lineSignal, type Severity } from './line-signals.js';
export type {
  PreviewBuilder,
  PreviewContext,
  PreviewInput,
  PreviewName,
  PreviewRead,
  PreviewStep,
  PreviewText,
} from './preview-builder.js';
export { buildPreview, buildWholePreview, PREVIEW_BUILDERS, resolvePreview } from './preview-registry.js';
export { type SalientPreviewOptions, salientBudget, salientPreview } from './salient-preview.js';
export { type TallyOptions, type TextTally, tallyText } from './text-tally.js';
