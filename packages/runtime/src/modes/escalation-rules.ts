import type { HybridSettings } from '../config/hybrid-settings.js';
import type { Executor } from '../executors/executor.js';
import type { AttemptEnd } from '../planner/turn-context.js';
import type { EscalationLog } from '../planner/turn-record.js';
import type { PrefilterSelection } from '../prefilter/prefilter.js';

/**
 * `critical_capabilities`: the turn is critical when the pre-filter's top-ranked candidate, with a score above
 * zero, has one of the listed capabilities. Returns the escalation, or `undefined`.
 */
export function criticalCapabilityRule(
  selection: PrefilterSelection<Executor>,
  settings: HybridSettings,
): EscalationLog | undefined {
  const top = selection.candidates[0];
  if (!top || top.score <= 0) return undefined;
  const capability = top.executor.capabilities.find((item) => settings.criticalCapabilities.includes(item));
  if (capability === undefined) return undefined;
  return {
    rule: 'critical_capabilities',
    reason: `the top-ranked candidate ${top.executor.name} (score ${top.score}) has the critical capability ${capability}`,
  };
}

/** `escalate_on`: the local attempt ended in one of the listed ways. Returns the escalation, or `undefined`. */
export function failedAttemptRule(end: AttemptEnd, settings: HybridSettings): EscalationLog | undefined {
  if (!(settings.escalateOn as readonly string[]).includes(end.kind)) return undefined;
  return { rule: 'escalate_on', reason: `the local attempt ended with ${end.kind}` };
}
