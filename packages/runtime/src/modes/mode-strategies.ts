import type { TurnContext } from '../planner/turn-context.js';
import type { TurnMode } from '../planner/turn-record.js';
import { runHybridTurn } from './hybrid-mode.js';
import { type ModeRun, runAttempt } from './run-attempt.js';

/** How a turn runs in one mode, over the steps every mode shares. */
export type ModeStrategy = (turn: TurnContext) => Promise<ModeRun>;

/** The three modes of seed 002: where the loop shape follows the per-call cost of the model. */
export const MODE_STRATEGIES: Readonly<Record<TurnMode, ModeStrategy>> = {
  /** Multistep ReAct on the planning tier: one round trip per step. */
  local: (turn) => runAttempt(turn, 'local', turn.planningTier),
  /** Single-shot on the planning tier: one round trip for the plan, one for the answer. */
  online: (turn) => runAttempt(turn, 'online', turn.planningTier),
  /** Local, escalating to online on the rules of `[runtime.hybrid]`. */
  hybrid: runHybridTurn,
};
