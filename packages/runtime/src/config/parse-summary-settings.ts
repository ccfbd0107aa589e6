import { readSection } from 'llm-scratchpad/extension';
import {
  defaultSummarySettings,
  MAX_SUMMARY_BYTES,
  MAX_SUMMARY_TIMEOUT_MS,
  type SummarySettings,
} from './summary-settings.js';
import { TIERS } from './tier.js';

const KEYS = [
  'enabled',
  'tier',
  'min_bytes',
  'max_bytes',
  'timeout_ms',
  'max_input_tokens',
  'max_output_tokens',
] as const;

/**
 * Reads `[runtime.summaries]`; absent keys keep their defaults. A value of the wrong type, a `max_bytes` below
 * `min_bytes` or above 64 MiB, or a `timeout_ms` above 10 minutes is a `CONFIG_INVALID` naming file and line.
 */
export function parseSummarySettings(
  section: unknown,
  source: { text: string; path: string },
): SummarySettings {
  const reader = readSection(section, ['runtime', 'summaries'], KEYS, source);
  const settings = defaultSummarySettings();
  settings.enabled = reader.boolean('enabled') ?? settings.enabled;
  settings.tier = reader.choice('tier', TIERS) ?? settings.tier;
  settings.minBytes = reader.integer('min_bytes', 0) ?? settings.minBytes;
  settings.maxBytes = reader.integer('max_bytes') ?? settings.maxBytes;
  settings.timeoutMs = reader.integer('timeout_ms') ?? settings.timeoutMs;
  settings.maxInputTokens = reader.integer('max_input_tokens') ?? settings.maxInputTokens;
  settings.maxOutputTokens = reader.integer('max_output_tokens') ?? settings.maxOutputTokens;
  if (settings.maxBytes > MAX_SUMMARY_BYTES) {
    throw reader.problem(
      'max_bytes',
      `max_bytes must be at most ${MAX_SUMMARY_BYTES} (64 MiB): a summarized output is read into memory whole`,
      'Write max_bytes = 1000000 (the default); larger outputs keep the salient preview.',
    );
  }
  if (settings.maxBytes < settings.minBytes) {
    throw reader.problem(
      reader.table.max_bytes === undefined ? 'min_bytes' : 'max_bytes',
      `max_bytes (${settings.maxBytes}) is below min_bytes (${settings.minBytes}): no output would be summarized`,
      'Make max_bytes at least min_bytes.',
    );
  }
  if (settings.timeoutMs > MAX_SUMMARY_TIMEOUT_MS) {
    throw reader.problem(
      'timeout_ms',
      `timeout_ms must be at most ${MAX_SUMMARY_TIMEOUT_MS} (10 minutes)`,
      'Write timeout_ms = 20000 (the default).',
    );
  }
  return settings;
}
