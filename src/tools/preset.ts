import type { ScratchpadTool } from './tool.js';

/** The names of the tool sets `--preset` selects. */
export type PresetName = 'default' | 'metnos' | 'openclaw' | 'harness' | 'named' | 'anthropic-memory';

/**
 * A tool set with the guidance that teaches a model to use it. Every preset runs on the same store and service;
 * presets that reproduce a seed's interface return the seed's exact strings.
 */
export interface Preset {
  readonly name: PresetName;
  readonly tools: ScratchpadTool[];
  /** System-prompt guidance to append to the host's system prompt (may be empty). */
  readonly systemPrompt: string;
  /**
   * Seed 000: offer the read tool only once the session has an entry. Hosts that can change the tool list while
   * they run (MCP, with `notifications/tools/list_changed`; an agent loop, per step) follow it.
   */
  readonly readToolOnDemand?: boolean;
}

/** Every preset name, for `--preset` choices (this file loads nothing else, so the CLI can import it cheaply). */
export const PRESET_NAMES: readonly PresetName[] = [
  'default',
  'metnos',
  'openclaw',
  'harness',
  'named',
  'anthropic-memory',
];
