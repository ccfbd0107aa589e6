import { configField, parseConfigSection } from 'llm-scratchpad/extension';
import { z } from 'zod';
import { CAPABILITY_PATTERN } from '../executors/executor-manifest.js';
import {
  defaultHybridSettings,
  ESCALATION_TRIGGERS,
  type EscalationTrigger,
  type HybridSettings,
} from './hybrid-settings.js';

const HYBRID_SCHEMA = z.strictObject({
  critical_capabilities: configField.stringList('capabilities (domain:action)', '["code:exec"]', (item) =>
    CAPABILITY_PATTERN.test(item),
  ),
  escalate_on: configField.stringList(
    ESCALATION_TRIGGERS.map((trigger) => `"${trigger}"`).join(', '),
    '["cap_steps", "cap_same_executor", "error"]',
    (item) => (ESCALATION_TRIGGERS as readonly string[]).includes(item),
  ),
});

/** Reads `[runtime.hybrid]` (`critical_capabilities`, `escalate_on`); absent keys keep their defaults. */
export function parseHybridSettings(
  section: unknown,
  source: { text: string; path: string },
): HybridSettings {
  const table = parseConfigSection(HYBRID_SCHEMA, section, ['runtime', 'hybrid'], source);
  const settings = defaultHybridSettings();
  if (table.critical_capabilities) settings.criticalCapabilities = [...table.critical_capabilities];
  if (table.escalate_on) settings.escalateOn = table.escalate_on as EscalationTrigger[];
  return settings;
}
