import type { Tier } from './tier.js';

/**
 * `[runtime.summaries]`: a model-written summary as the preview of large text outputs in `scratchpad run` (the
 * offload policy's `summarize`). Off by default: each summary is one more model request.
 */
export interface SummarySettings {
  /** `enabled`: summarize text outputs in the size range. */
  enabled: boolean;
  /** `tier`: the tier whose model writes the summary (a missing tier aliases down, as everywhere). */
  tier: Tier;
  /** `min_bytes`: outputs of at least this many UTF-8 bytes are summarized … */
  minBytes: number;
  /** … `max_bytes`: and at most this many (the summarized text is read into memory whole). */
  maxBytes: number;
  /** `timeout_ms`: the time budget of one summary; past it the salient preview is shown. */
  timeoutMs: number;
  /** `max_input_tokens`: a longer output is sent as its head and tail. */
  maxInputTokens: number;
  /** `max_output_tokens`: the longest summary kept. */
  maxOutputTokens: number;
}

/** The largest `max_bytes`: a summarized output is held in memory whole (64 MiB). */
export const MAX_SUMMARY_BYTES = 64 * 1024 * 1024;

/** The largest `timeout_ms` (10 minutes): a timer cannot wait longer than about 24.8 days, and no turn should. */
export const MAX_SUMMARY_TIMEOUT_MS = 600_000;

/** Defaults: off; when on, the fast tier summarizes text outputs of 50 KB to 1 MB within 20 s, in 400 tokens. */
export function defaultSummarySettings(): SummarySettings {
  return {
    enabled: false,
    tier: 'fast',
    minBytes: 50_000,
    maxBytes: 1_000_000,
    timeoutMs: 20_000,
    maxInputTokens: 24_000,
    maxOutputTokens: 400,
  };
}
