import { defaultHybridSettings } from '../config/hybrid-settings.js';
import type { Tier } from '../config/runtime-config.js';
import type { TurnContext } from '../planner/turn-context.js';
import type { EscalationLog } from '../planner/turn-record.js';
import { summarizeAttempt } from './attempt-summary.js';
import { criticalCapabilityRule, failedAttemptRule } from './escalation-rules.js';
import { type ModeRun, runAttempt } from './run-attempt.js';

/** The tier an escalated hybrid turn uses online (aliasing down when it is not configured). */
export const ESCALATION_TIER: Tier = 'wise';

/**
 * The hybrid mode of seed 002: local by default; online (on the `wise` tier) from the start when the top
 * candidate has a critical capability, or once more after a local attempt that ended in an `escalate_on` way,
 * with that attempt summarised in the request. Records the rule that fired (`escalation`) and every attempt.
 */
export async function runHybridTurn(turn: TurnContext): Promise<ModeRun> {
  const settings = turn.options.hybrid ?? defaultHybridSettings();
  const critical = criticalCapabilityRule(turn.selection, settings);
  if (critical) {
    escalate(turn, critical);
    const online = await runAttempt(turn, 'online', ESCALATION_TIER);
    return { ...online, attempts: [online.attempt] };
  }
  const local = await runAttempt(turn, 'local', turn.planningTier);
  const failed = failedAttemptRule(local.end, settings);
  if (!failed) {
    turn.record.escalation = null;
    return { ...local, attempts: [local.attempt] };
  }
  escalate(turn, failed);
  const online = await runAttempt(
    turn,
    'online',
    ESCALATION_TIER,
    summarizeAttempt(local.attempt.log.steps, local.end),
  );
  return { ...online, attempts: [local.attempt, online.attempt] };
}

function escalate(turn: TurnContext, escalation: EscalationLog): void {
  turn.record.escalation = escalation;
  turn.emit({ type: 'escalation', ...escalation });
}
