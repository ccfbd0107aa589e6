import { readSection } from 'llm-scratchpad/extension';
import { defaultJudgeSettings, JUDGE_SETTINGS, type JudgeSettings } from '../vaglio/judge-settings.js';

/** Reads `[runtime.vaglio]` (`judge`, `max_judge_calls_per_turn`); absent keys keep their defaults. */
export function parseJudgeSettings(section: unknown, source: { text: string; path: string }): JudgeSettings {
  const reader = readSection(section, ['runtime', 'vaglio'], ['judge', 'max_judge_calls_per_turn'], source);
  const settings = defaultJudgeSettings();
  settings.judge = reader.choice('judge', JUDGE_SETTINGS) ?? settings.judge;
  settings.maxJudgeCallsPerTurn = reader.integer('max_judge_calls_per_turn') ?? settings.maxJudgeCallsPerTurn;
  return settings;
}
