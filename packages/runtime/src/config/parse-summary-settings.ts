import { configField, configProblem, parseConfigSection } from 'llm-scratchpad/extension';
import { z } from 'zod';
import {
  defaultSummarySettings,
  MAX_SUMMARY_BYTES,
  MAX_SUMMARY_TIMEOUT_MS,
  type SummarySettings,
} from './summary-settings.js';
import { TIERS } from './tier.js';

const SUMMARY_SCHEMA = z.strictObject({
  enabled: configField.boolean(),
  tier: configField.choice(TIERS),
  min_bytes: configField.integer(0),
  max_bytes: configField.integer(),
  timeout_ms: configField.integer(),
  max_input_tokens: configField.integer(),
  max_output_tokens: configField.integer(),
});

/**
 * Reads `[runtime.summaries]`; absent keys keep their defaults. A value of the wrong type, a `max_bytes` below
 * `min_bytes` or above 64 MiB, or a `timeout_ms` above 10 minutes is a `CONFIG_INVALID` naming file and line.
 */
export function parseSummarySettings(
  section: unknown,
  source: { text: string; path: string },
): SummarySettings {
  const at = ['runtime', 'summaries'];
  const table = parseConfigSection(SUMMARY_SCHEMA, section, at, source);
  const problem = (key: string, message: string, hint: string) => configProblem(source, [...at, key], message, hint);
  const settings = defaultSummarySettings();
  settings.enabled = table.enabled ?? settings.enabled;
  settings.tier = table.tier ?? settings.tier;
  settings.minBytes = table.min_bytes ?? settings.minBytes;
  settings.maxBytes = table.max_bytes ?? settings.maxBytes;
  settings.timeoutMs = table.timeout_ms ?? settings.timeoutMs;
  settings.maxInputTokens = table.max_input_tokens ?? settings.maxInputTokens;
  settings.maxOutputTokens = table.max_output_tokens ?? settings.maxOutputTokens;
  if (settings.maxBytes > MAX_SUMMARY_BYTES) {
    throw problem(
      'max_bytes',
      `max_bytes must be at most ${MAX_SUMMARY_BYTES} (64 MiB): a summarized output is read into memory whole`,
      'Write max_bytes = 1000000 (the default); larger outputs keep the salient preview.',
    );
  }
  if (settings.maxBytes < settings.minBytes) {
    throw problem(
      table.max_bytes === undefined ? 'min_bytes' : 'max_bytes',
      `max_bytes (${settings.maxBytes}) is below min_bytes (${settings.minBytes}): no output would be summarized`,
      'Make max_bytes at least min_bytes.',
    );
  }
  if (settings.timeoutMs > MAX_SUMMARY_TIMEOUT_MS) {
    throw problem(
      'timeout_ms',
      `timeout_ms must be at most ${MAX_SUMMARY_TIMEOUT_MS} (10 minutes)`,
      'Write timeout_ms = 20000 (the default).',
    );
  }
  return settings;
}
