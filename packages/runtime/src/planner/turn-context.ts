import type { Offloader } from 'llm-scratchpad';
import type { PreviewStep } from 'llm-scratchpad';
import type { StepRecord } from 'llm-scratchpad';
import type { SessionScratchpad } from 'llm-scratchpad';
import type { ScratchpadTool } from 'llm-scratchpad/tools';
import type { Tier } from '../config/runtime-config.js';
import type { Executor } from '../executors/executor.js';
import type { ModelToolDefinition } from '../model/language-model.js';
import type { PrefilterSelection } from '../prefilter/prefilter.js';
import type { TierModel, TierModels } from '../tiers/tier-models.js';
import type { JudgeBudget } from '../vaglio/judge-budget.js';
import type { ArgumentValidator } from './argument-validator.js';
import type { StepState } from './step-context.js';
import type { TurnEvent } from './turn-events.js';
import type { RunTurnOptions } from './turn-options.js';
import type { FinalKind, TurnAttemptLog, TurnLogRecord } from './turn-record.js';

/** What every mode of a turn shares: set up once, after the gc and the pre-filter. */
export interface TurnContext {
  readonly options: RunTurnOptions;
  readonly turnId: string;
  readonly now: () => number;
  readonly record: TurnLogRecord;
  readonly session: SessionScratchpad;
  readonly selection: PrefilterSelection<Executor>;
  /** The top-K executors offered to the model. */
  readonly candidates: readonly Executor[];
  /** The candidates as tool definitions (shared by every request: never mutate). */
  readonly executorTools: ModelToolDefinition[];
  readonly readTool: ScratchpadTool;
  readonly readDefinition: ModelToolDefinition;
  readonly offloader: Offloader;
  readonly validator: ArgumentValidator;
  /** How offloaded results look and how to read them (the scratchpad style's guidance for the prompt). */
  readonly scratchpadGuidance: string;
  readonly capSteps: number;
  readonly capSameExecutor: number;
  readonly tiers: TierModels;
  /** The tier the planner starts on (`--tier`, default `fast`). */
  readonly planningTier: Tier;
  /** Model judge calls left in this turn. */
  readonly judgeBudget: JudgeBudget;
  emit(event: TurnEvent): void;
}

/** One attempt at the turn (a hybrid turn may make two): its own steps and `{{stepN.field}}` numbering. */
export interface Attempt {
  readonly log: TurnAttemptLog;
  readonly stepValues: StepRecord[];
  readonly history: PreviewStep[];
  readonly states: StepState[];
  readonly executorCalls: Map<string, number>;
  /** True once a step of this attempt stored a result (the read tool is offered from then on). */
  offloaded: boolean;
  lastObservation: string;
}

/** How an attempt ended. */
export interface AttemptEnd {
  kind: FinalKind;
  message: string;
}

/** Starts an attempt in `mode` on `tier`; `model` is `undefined` when the tier's model could not be built. */
export function startAttempt(
  turn: TurnContext,
  mode: 'local' | 'online',
  tier: Tier,
  model: TierModel['model'] | undefined,
): Attempt {
  const attempt: Attempt = {
    log: {
      mode,
      tier,
      model: model ? { provider: model.provider, modelId: model.modelId } : null,
      steps: [],
      final_kind: 'error',
      final_message: '',
    },
    stepValues: [],
    history: [],
    states: [],
    executorCalls: new Map(),
    offloaded: false,
    lastObservation: '',
  };
  if (model)
    turn.emit({ type: 'attempt-start', mode, tier, provider: model.provider, modelId: model.modelId });
  return attempt;
}
