import { readSection } from 'llm-scratchpad/extension';
import { CAPABILITY_PATTERN } from '../executors/executor-manifest.js';
import {
  defaultHybridSettings,
  ESCALATION_TRIGGERS,
  type EscalationTrigger,
  type HybridSettings,
} from './hybrid-settings.js';

/** Reads `[runtime.hybrid]` (`critical_capabilities`, `escalate_on`); absent keys keep their defaults. */
export function parseHybridSettings(
  section: unknown,
  source: { text: string; path: string },
): HybridSettings {
  const reader = readSection(
    section,
    ['runtime', 'hybrid'],
    ['critical_capabilities', 'escalate_on'],
    source,
  );
  const settings = defaultHybridSettings();
  const critical = reader.stringList(
    'critical_capabilities',
    'capabilities (domain:action)',
    'critical_capabilities = ["code:exec"]',
    (item) => CAPABILITY_PATTERN.test(item),
  );
  if (critical) settings.criticalCapabilities = critical;
  const escalateOn = reader.stringList(
    'escalate_on',
    ESCALATION_TRIGGERS.map((trigger) => `"${trigger}"`).join(', '),
    'escalate_on = ["cap_steps", "cap_same_executor", "error"]',
    (item) => (ESCALATION_TRIGGERS as readonly string[]).includes(item),
  );
  if (escalateOn) settings.escalateOn = escalateOn as EscalationTrigger[];
  return settings;
}
