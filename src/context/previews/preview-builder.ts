import type { EntryKind } from '../../core/entry.js';
import type { JsonValue } from '../../core/json.js';
import type { ContentSample } from './content-sample.js';
import type { TextTally } from './text-tally.js';

/** One earlier step of the conversation, as the model saw it. */
export interface PreviewStep {
  action?: string;
  thought?: string;
  observation?: string;
}

/**
 * What came before a result: the task and the earlier steps (their observations as shown to the model), plus
 * the step that produced the result without its observation. Never anything that comes after.
 */
export interface PreviewContext {
  task?: string;
  history?: readonly PreviewStep[];
}

/** A result as a preview builder sees it. */
export interface PreviewInput {
  kind: EntryKind;
  /** The stored text (empty for binary results). */
  text: string;
  /** The stored bytes (UTF-8 of `text` for text results). */
  bytes: Uint8Array;
  /** The parsed value when the result was JSON. */
  json?: JsonValue;
  context: PreviewContext;
  /**
   * Exact counts over the whole text ({@link tallyText}), when the caller had them made: a preview that reads a
   * sample states these instead of estimates (the offloader gives them to the salient preview).
   */
  tally?: TextTally;
  /**
   * For a result too large to hold, already stored: the sample read from the store (`sampleEntry`); `text` and
   * `bytes` are then only its start. The `salient` preview reads the sample; other builders see the start.
   */
  sample?: ContentSample;
}

/** One read the preview suggests: a line range (`"A:B"`, negative counts from the end) or a regex (RE2). */
export type PreviewRead = { lines: string } | { regex: string };

/** A preview plus hints the observation can turn into exact read calls. */
export interface PreviewText {
  text: string;
  /** Exact reads worth making next, best first; when given, the observation offers these. */
  reads?: PreviewRead[];
  /** A 1-based line worth reading around (the first error, the first new name). */
  focusLine?: number;
  /** A regular expression worth searching for (what stands out, a new name the preview lists). */
  searchExample?: string;
}

/** Builds the part of an offload observation that stands in for the content. */
export type PreviewBuilder = (input: PreviewInput) => string | PreviewText;

/** The built-in previews (see {@link PREVIEW_BUILDERS}). */
export type PreviewName = 'head-tail' | 'head' | 'first-last-lines' | 'binary' | 'json-structure' | 'salient';
