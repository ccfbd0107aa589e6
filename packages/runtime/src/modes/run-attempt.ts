import { formatUnknownError } from 'llm-scratchpad';
import type { Tier } from '../config/runtime-config.js';
import { type Attempt, type AttemptEnd, startAttempt, type TurnContext } from '../planner/turn-context.js';
import type { TierModel } from '../tiers/tier-models.js';
import { runLocalAttempt } from './local-mode.js';
import { runOnlineAttempt } from './online-mode.js';

/** What a mode returns: how the turn ended, its last attempt, and every attempt (hybrid turns may make two). */
export interface ModeRun {
  end: AttemptEnd;
  attempt: Attempt;
  attempts?: Attempt[];
}

/**
 * One attempt in `mode` on `tier`: builds the tier's model (a tier that cannot be built ends the attempt with
 * `error`), runs the loop, and writes the end into the attempt's log.
 */
export async function runAttempt(
  turn: TurnContext,
  mode: 'local' | 'online',
  tier: Tier,
  priorAttempt?: string,
): Promise<{ end: AttemptEnd; attempt: Attempt }> {
  let model: TierModel['model'];
  try {
    model = turn.tiers.get(tier).model;
  } catch (error) {
    const failed = startAttempt(turn, mode, tier, undefined);
    return { end: finish(failed, { kind: 'error', message: formatUnknownError(error) }), attempt: failed };
  }
  const attempt = startAttempt(turn, mode, tier, model);
  const end =
    mode === 'local'
      ? await runLocalAttempt(turn, attempt, { tier })
      : await runOnlineAttempt(turn, attempt, { tier, ...(priorAttempt ? { priorAttempt } : {}) });
  return { end: finish(attempt, end), attempt };
}

function finish(attempt: Attempt, end: AttemptEnd): AttemptEnd {
  attempt.log.final_kind = end.kind;
  attempt.log.final_message = end.message;
  return end;
}
