import { ScratchpadError } from '../../core/errors.js';
import { SCRATCHPAD_TOOL_NAMES } from '../../core/tool-names.js';
import type { PreviewBuilder, PreviewName } from '../previews/preview-builder.js';
import { resolvePreview } from '../previews/preview-registry.js';
import type { TokenizerSpec } from '../tokens/named-tokenizers.js';
import { resolveSummarize, type SummarizeOptions, type SummarizeSettings } from './summary-preview.js';

/**
 * How the observation that replaces an offloaded result reads:
 * - `default`: this project's design (name, id, sizes, kind, metadata, the salient preview, exact read calls);
 * - `metnos`: seed 000's synthetic observation, exactly (`ok`, `scratchpad_id`, `size_bytes`, `kind`, `summary`,
 *   `metadata`, `_note`);
 * - `named`: seed 004's notice (`Output too large …`, saved under `<tool>_<n>`, `Preview (first 2000 bytes)`).
 */
export type ObservationFormat = 'default' | 'metnos' | 'named';

/**
 * How a result's size is measured against the threshold: UTF-8 `bytes` of the result as the model would read it,
 * its `chars` (code points), the UTF-8 bytes of its JSON serialization (`json-bytes`, seed 000's
 * `len(json.dumps(observation))`), or its `tokens` in the policy's tokenizer (exact, counted only up to the
 * threshold). Binary results count their bytes.
 */
export type SizeMeasure = 'bytes' | 'chars' | 'json-bytes' | 'tokens';

/** A rule for one tool's results. */
export interface ToolOffloadRule {
  /** Offload above this size (in the policy's measure). */
  threshold?: number;
  preview?: PreviewName | PreviewBuilder;
  /** `never` keeps the tool's results inline, `always` offloads every non-empty result; `auto` (default) uses the threshold. */
  offload?: 'auto' | 'never' | 'always';
}

/** Options for {@link createOffloadPolicy}; anything left out takes the format's default (see {@link FORMAT_DEFAULTS}). */
export interface OffloadPolicyOptions {
  format?: ObservationFormat;
  /** Offload results larger than this (in `measure` units). */
  threshold?: number;
  measure?: SizeMeasure;
  /** With `measure: 'tokens'`: `o200k` (default), `cl100k`, or the host's own `(text) => number`. */
  tokenizer?: TokenizerSpec;
  /**
   * Keep a result inline when offloading would not save at least this share of it: the observation must be at
   * most `(1 - minSavings)` of the result's length. 0 turns the check off.
   */
  minSavings?: number;
  /** Rules per tool name, over the global ones. */
  perTool?: Readonly<Record<string, ToolOffloadRule>>;
  preview?: PreviewName | PreviewBuilder;
  /** Lifetime of offloaded entries: milliseconds, `null` = with the session, omitted = the store's default. */
  ttlMs?: number | null;
  /** More tools whose results are never offloaded (added to {@link DEFAULT_EXEMPT_TOOLS}, never replacing them). */
  exempt?: Iterable<string>;
  /** The read tool the observation tells the model to call (the tool layer passes its name). */
  readTool?: string;
  /**
   * A model-written summary as the preview of large text outputs (50 KB–1 MB by default), within a time and token
   * budget, cached by content hash; the policy's own preview on any failure. Off unless given.
   */
  summarize?: SummarizeOptions;
}

/** A resolved policy: per-tool decisions the offloader asks for. */
export interface OffloadPolicy {
  readonly format: ObservationFormat;
  readonly measure: SizeMeasure;
  readonly tokenizer: TokenizerSpec;
  readonly threshold: number;
  readonly minSavings: number;
  readonly ttlMs: number | null | undefined;
  readonly readTool: string;
  /** The summary preview's settings, when the policy has one. */
  readonly summarize: SummarizeSettings | undefined;
  /** True when results of `tool` are never offloaded (the scratchpad's own tools: reading back must not offload again). */
  isExempt(tool: string): boolean;
  /** The size above which results of `tool` are offloaded (0 = every non-empty result). */
  thresholdFor(tool: string): number;
  previewFor(tool: string): PreviewBuilder;
}

/** The scratchpad's own tools (every preset's names): their results are never offloaded. */
export const DEFAULT_EXEMPT_TOOLS: readonly string[] = Object.freeze([...SCRATCHPAD_TOOL_NAMES]);

/** The per-format defaults: seed 000's and seed 004's numbers, and this project's. */
export const FORMAT_DEFAULTS: Readonly<
  Record<
    ObservationFormat,
    {
      threshold: number;
      measure: SizeMeasure;
      minSavings: number;
      preview: PreviewName;
      ttlMs: number | null | undefined;
    }
  >
> = Object.freeze({
  metnos: { threshold: 4096, measure: 'json-bytes', minSavings: 0, preview: 'head-tail', ttlMs: 3_600_000 },
  named: { threshold: 30_000, measure: 'chars', minSavings: 0, preview: 'head', ttlMs: null },
  default: { threshold: 768, measure: 'bytes', minSavings: 0.5, preview: 'salient', ttlMs: undefined },
});

/**
 * Resolves offload options into a policy. Example: `createOffloadPolicy({ format: 'metnos' })` is seed 000
 * (JSON > 4,096 bytes, head 500 + tail 500, TTL 1 h); `createOffloadPolicy({ perTool: { fetch: { threshold: 50_000 } } })`
 * is the default design with a larger threshold for one tool.
 */
export function createOffloadPolicy(options: OffloadPolicyOptions = {}): OffloadPolicy {
  const format = options.format ?? 'default';
  if (!Object.hasOwn(FORMAT_DEFAULTS, format)) {
    throw invalid(
      `Unknown observation format ${JSON.stringify(format)}.`,
      'Use "default", "metnos" or "named".',
    );
  }
  const defaults = FORMAT_DEFAULTS[format];
  const threshold = checkThreshold(options.threshold ?? defaults.threshold, 'threshold');
  const measure = options.measure ?? defaults.measure;
  if (!['bytes', 'chars', 'json-bytes', 'tokens'].includes(measure)) {
    throw invalid(
      `Unknown size measure ${JSON.stringify(measure)}.`,
      'Use "bytes", "chars", "json-bytes" or "tokens".',
    );
  }
  const tokenizer = options.tokenizer ?? 'o200k';
  if (typeof tokenizer !== 'function' && tokenizer !== 'o200k' && tokenizer !== 'cl100k') {
    throw invalid(
      `Unknown tokenizer ${JSON.stringify(tokenizer)}.`,
      'Use "o200k", "cl100k", or a function (text) => number.',
    );
  }
  const minSavings = options.minSavings ?? defaults.minSavings;
  if (typeof minSavings !== 'number' || !(minSavings >= 0 && minSavings < 1)) {
    throw invalid(
      `minSavings must be a number in [0, 1), got ${String(minSavings)}.`,
      'Use 0 to turn the check off, 0.5 to require halving.',
    );
  }
  const ttlMs = options.ttlMs === undefined ? defaults.ttlMs : options.ttlMs;
  if (ttlMs !== null && ttlMs !== undefined && !(Number.isFinite(ttlMs) && ttlMs > 0)) {
    throw invalid(
      `ttlMs must be a positive number of milliseconds or null, got ${String(ttlMs)}.`,
      'Use null to keep entries with the session.',
    );
  }
  const readTool = options.readTool ?? 'scratchpad_read';
  const preview = resolvePreview(options.preview ?? defaults.preview);
  const rules = new Map<string, { threshold: number; preview: PreviewBuilder; never: boolean }>();
  for (const [tool, rule] of Object.entries(options.perTool ?? {})) {
    if (rule.offload !== undefined && !['auto', 'never', 'always'].includes(rule.offload)) {
      throw invalid(
        `perTool.${tool}.offload must be "auto", "never" or "always".`,
        'Leave it out for "auto".',
      );
    }
    rules.set(tool, {
      threshold:
        rule.offload === 'always'
          ? 0
          : checkThreshold(rule.threshold ?? threshold, `perTool.${tool}.threshold`),
      preview: rule.preview === undefined ? preview : resolvePreview(rule.preview),
      never: rule.offload === 'never',
    });
  }
  const exempt = new Set([...DEFAULT_EXEMPT_TOOLS, readTool, ...(options.exempt ?? [])]);
  return Object.freeze({
    format,
    measure,
    tokenizer,
    threshold,
    minSavings,
    ttlMs,
    readTool,
    summarize: options.summarize === undefined ? undefined : resolveSummarize(options.summarize),
    isExempt: (tool: string) =>
      exempt.has(tool) || tool.startsWith('scratchpad_') || rules.get(tool)?.never === true,
    thresholdFor: (tool: string) => rules.get(tool)?.threshold ?? threshold,
    previewFor: (tool: string) => rules.get(tool)?.preview ?? preview,
  });
}

function checkThreshold(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw invalid(
      `${what} must be an integer >= 0, got ${String(value)}.`,
      "Give a size in the policy's measure (bytes, characters or tokens).",
    );
  }
  return value;
}

function invalid(message: string, hint: string): ScratchpadError {
  return new ScratchpadError('CONFIG_INVALID', message, { hint });
}
