import { configField, parseConfigSection } from 'llm-scratchpad/extension';
import { z } from 'zod';
import { defaultJudgeSettings, JUDGE_SETTINGS, type JudgeSettings } from '../vaglio/judge-settings.js';

const JUDGE_SCHEMA = z.strictObject({
  judge: configField.choice(JUDGE_SETTINGS),
  max_judge_calls_per_turn: configField.integer(),
});

/** Reads `[runtime.vaglio]` (`judge`, `max_judge_calls_per_turn`); absent keys keep their defaults. */
export function parseJudgeSettings(section: unknown, source: { text: string; path: string }): JudgeSettings {
  const table = parseConfigSection(JUDGE_SCHEMA, section, ['runtime', 'vaglio'], source);
  const settings = defaultJudgeSettings();
  settings.judge = table.judge ?? settings.judge;
  settings.maxJudgeCallsPerTurn = table.max_judge_calls_per_turn ?? settings.maxJudgeCallsPerTurn;
  return settings;
}
