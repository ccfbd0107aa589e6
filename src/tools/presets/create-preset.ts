import { createDefaultPreset } from '../default/default-preset.js';
import type { Preset, PresetName } from '../preset.js';
import { createAnthropicMemoryPreset } from './anthropic-memory/index.js';
import { createHarnessPreset } from './harness/harness-preset.js';
import { createMetnosPreset } from './metnos/metnos-preset.js';
import { createNamedPreset } from './named/named-preset.js';
import { createOpenclawPreset } from './openclaw/openclaw-preset.js';

/** Builds a preset by name. */
export function createPreset(name: PresetName): Preset {
  switch (name) {
    case 'default':
      return createDefaultPreset();
    case 'metnos':
      return createMetnosPreset();
    case 'harness':
      return createHarnessPreset();
    case 'named':
      return createNamedPreset();
    case 'openclaw':
      return createOpenclawPreset();
    case 'anthropic-memory':
      return createAnthropicMemoryPreset();
  }
}
