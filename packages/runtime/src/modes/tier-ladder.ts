import type { Tier } from '../config/runtime-config.js';
import type { TurnContext } from '../planner/turn-context.js';
import type { StepRecordLog } from '../planner/turn-record.js';

/** Failed validations in a row that move the rest of a turn one tier up (`escalate_tier`). */
export const FAILED_VALIDATIONS_TO_ESCALATE = 2;

/**
 * Auto-escalation of tier (seed 002's deferred table): with `[runtime] escalate_tier = true`, a step whose tool
 * call fails validation twice (two invalid calls in a row) moves the rest of the turn to the next tier up that
 * another section serves (fast → middle → wise). Each move is logged in `tier_escalations` and reported.
 */
export class TierLadder {
  readonly #turn: TurnContext;
  #current: Tier;
  #failures = 0;

  constructor(turn: TurnContext, start: Tier) {
    this.#turn = turn;
    this.#current = start;
  }

  /** The tier that proposes the next call. */
  get current(): Tier {
    return this.#current;
  }

  /** Counts a finished step; escalates after the second failed validation in a row, when a tier is above. */
  observe(step: StepRecordLog | undefined): void {
    if (!this.#turn.options.escalateTier || step === undefined) return;
    this.#failures = step.outcome === 'invalid_arguments' ? this.#failures + 1 : 0;
    if (this.#failures < FAILED_VALIDATIONS_TO_ESCALATE) return;
    const next = this.#turn.tiers.above(this.#current);
    if (next === undefined) return;
    const from = this.#current;
    this.#current = next;
    this.#failures = 0;
    this.#turn.record.tier_escalations ??= [];
    this.#turn.record.tier_escalations.push({
      step: step.step,
      from,
      to: next,
      reason: `${FAILED_VALIDATIONS_TO_ESCALATE} tool calls in a row failed validation`,
    });
    this.#turn.emit({ type: 'tier-escalation', step: step.step, from, to: next });
  }
}
