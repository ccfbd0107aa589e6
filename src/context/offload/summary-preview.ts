import { createHash } from 'node:crypto';
import { ScratchpadError } from '../../core/errors.js';
import { setNewest } from '../../core/recent-map.js';
import type { PreviewText } from '../previews/preview-builder.js';
import { type CountTokens, estimateTokens } from '../tokens/estimate-tokens.js';

/** What a summarizer is asked. */
export interface SummarizeRequest {
  /** The output, or a head and tail of it when it is over the input budget (`sampled` says so). */
  text: string;
  sampled: boolean;
  /** The output's full size in characters. */
  chars: number;
  /** The task the agent works on, when the host gave it. */
  task?: string;
  /** The longest answer wanted, in tokens. */
  maxOutputTokens: number;
  /** Aborted when the time budget is over: pass it to the model request. */
  signal: AbortSignal;
}

/** Writes a summary of one output: a function of the host, or `createModelSummarizer(model)` (the runtime's `fast` tier). */
export type Summarizer = (request: SummarizeRequest) => Promise<string>;

/** Options of the `summarize` preview (the offload policy's `summarize`). */
export interface SummarizeOptions {
  summarizer: Summarizer;
  /** Summarize text outputs of at least this many UTF-8 bytes (default 50,000) … */
  minBytes?: number;
  /** … and at most this many (default 1,000,000); others get the policy's preview. */
  maxBytes?: number;
  /** The time budget of one summary, in milliseconds (default 20,000). */
  timeoutMs?: number;
  /** The most the summarizer is given, in tokens (default 24,000): a longer output is sent as head + tail. */
  maxInputTokens?: number;
  /** The longest summary kept, in tokens (default 400); a longer answer is cut. */
  maxOutputTokens?: number;
  /** Counts tokens for both budgets (default: the 4-characters estimate). */
  countTokens?: CountTokens;
  /** Summaries kept by content hash (default: a cache of 256 per policy). */
  cache?: SummaryCache;
}

/** How the preview of one output came to be. */
export type SummaryOutcome =
  | { source: 'model' | 'cache' }
  | { source: 'fallback'; reason: 'timeout' | 'error' | 'empty' };

/** Summaries by SHA-256 of the summarized text, least recently used dropped first. */
export interface SummaryCache {
  get(key: string): string | undefined;
  set(key: string, summary: string): void;
}

/** A bounded in-memory {@link SummaryCache}. */
export function createSummaryCache(maxEntries = 256): SummaryCache {
  const entries = new Map<string, string>();
  return {
    get(key) {
      const summary = entries.get(key);
      if (summary !== undefined) setNewest(entries, key, summary, maxEntries);
      return summary;
    },
    set(key, summary) {
      setNewest(entries, key, summary, maxEntries);
    },
  };
}

/** The resolved options the offloader uses. */
export type SummarizeSettings = Required<SummarizeOptions>;

/** Checks and completes the options (a policy calls it once). */
export function resolveSummarize(options: SummarizeOptions): SummarizeSettings {
  if (typeof options?.summarizer !== 'function') {
    throw new ScratchpadError('CONFIG_INVALID', 'summarize needs a summarizer function.', {
      hint: 'Pass { summarizer: async ({ text }) => "…" }, or createModelSummarizer(model) from llm-scratchpad-runtime.',
    });
  }
  const settings: SummarizeSettings = {
    summarizer: options.summarizer,
    minBytes: options.minBytes ?? 50_000,
    maxBytes: options.maxBytes ?? 1_000_000,
    timeoutMs: options.timeoutMs ?? 20_000,
    maxInputTokens: options.maxInputTokens ?? 24_000,
    maxOutputTokens: options.maxOutputTokens ?? 400,
    countTokens: options.countTokens ?? estimateTokens,
    cache: options.cache ?? createSummaryCache(),
  };
  for (const key of ['minBytes', 'maxBytes', 'timeoutMs', 'maxInputTokens', 'maxOutputTokens'] as const) {
    const value = settings[key];
    if (!Number.isSafeInteger(value) || value < (key === 'minBytes' ? 0 : 1)) {
      throw new ScratchpadError(
        'CONFIG_INVALID',
        `summarize.${key} must be a positive integer, got ${String(value)}.`,
        {
          hint: 'Leave it out for the default.',
        },
      );
    }
  }
  return settings;
}

/** Whether an output of this kind and size gets a summary. */
export function wantsSummary(settings: SummarizeSettings | undefined, kind: string, bytes: number): boolean {
  return (
    settings !== undefined && kind === 'text' && bytes >= settings.minBytes && bytes <= settings.maxBytes
  );
}

const HEADER = 'Summary (written by a model from the output; check what matters by reading the entry):';

/**
 * The preview of a large text output: the summarizer's answer within the time and token budgets, in front of the
 * fallback preview's read calls; the fallback preview itself (the salient preview) on a timeout, an error or an
 * empty answer. A summary is cached by the hash of what was summarized, so the same output is summarized once.
 */
export async function summaryPreview(
  settings: SummarizeSettings,
  text: string,
  fallback: PreviewText,
  task: string | undefined,
): Promise<{ preview: PreviewText; outcome: SummaryOutcome }> {
  const { text: input, sampled } = boundInput(text, settings);
  const key = createHash('sha256')
    .update(`${settings.maxOutputTokens}\u0000${task ?? ''}\u0000`)
    .update(input)
    .digest('hex');
  const cached = settings.cache.get(key);
  if (cached !== undefined) return { preview: withSummary(cached, fallback), outcome: { source: 'cache' } };
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error('summary time budget is over'));
      resolve('timeout');
    }, settings.timeoutMs);
  });
  try {
    const answer = await Promise.race([
      Promise.resolve()
        .then(() =>
          settings.summarizer({
            text: input,
            sampled,
            chars: text.length,
            ...(task === undefined ? {} : { task }),
            maxOutputTokens: settings.maxOutputTokens,
            signal: controller.signal,
          }),
        )
        .then(
          (value) => ({ value }),
          () => 'error' as const,
        ),
      timeout,
    ]);
    if (answer === 'timeout' || answer === 'error') {
      return { preview: fallback, outcome: { source: 'fallback', reason: answer } };
    }
    const summary = cleanSummary(answer.value, settings);
    if (summary.length === 0) return { preview: fallback, outcome: { source: 'fallback', reason: 'empty' } };
    settings.cache.set(key, summary);
    return { preview: withSummary(summary, fallback), outcome: { source: 'model' } };
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

function withSummary(summary: string, fallback: PreviewText): PreviewText {
  return { ...fallback, text: `${HEADER}\n${summary}` };
}

/** A model's answer as the observation shows it: a string, control characters out, within the output budget. */
function cleanSummary(value: unknown, settings: SummarizeSettings): string {
  if (typeof value !== 'string') return '';
  let summary = value.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ').trim();
  const maxChars = settings.maxOutputTokens * 8;
  if (summary.length > maxChars) summary = summary.slice(0, maxChars);
  while (summary.length > 0 && settings.countTokens(summary) > settings.maxOutputTokens) {
    summary = summary.slice(0, Math.floor(summary.length * 0.9));
  }
  return summary.length < value.trim().length ? `${summary}…` : summary;
}

/** The text within the input budget: whole, or its head and tail around a line saying how much was left out. */
function boundInput(text: string, settings: SummarizeSettings): { text: string; sampled: boolean } {
  if (settings.countTokens(text) <= settings.maxInputTokens) return { text, sampled: false };
  // Characters per token of this text, so the cut lands near the budget whatever the counter.
  const ratio = text.length / Math.max(1, settings.countTokens(text));
  const keep = Math.floor((settings.maxInputTokens * ratio) / 2) - 50;
  // Never cut between the two halves of a surrogate pair.
  let headEnd = Math.max(0, keep);
  if (/[\ud800-\udbff]/.test(text.charAt(headEnd - 1))) headEnd--;
  let tailStart = text.length - Math.max(0, keep);
  if (/[\udc00-\udfff]/.test(text.charAt(tailStart))) tailStart++;
  const head = text.slice(0, headEnd);
  const tail = text.slice(tailStart);
  const omitted = text.length - head.length - tail.length;
  return { text: `${head}\n[… ${omitted} characters left out …]\n${tail}`, sampled: true };
}
