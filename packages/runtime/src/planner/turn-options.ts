import type { OffloadPolicyOptions } from 'llm-scratchpad';
import type { Scratchpad } from 'llm-scratchpad';
import type { HybridSettings } from '../config/hybrid-settings.js';
import type { SummarySettings } from '../config/summary-settings.js';
import type { Tier } from '../config/tier.js';
import type { Executor } from '../executors/executor.js';
import type { DiscardedExecutor } from '../executors/load-catalog.js';
import type { ExecutorRun, RunExecutorOptions } from '../executors/run-executor.js';
import type { Mnestome } from '../mnestome/mnestome.js';
import type { LanguageModel } from '../model/language-model.js';
import type { Prefilter } from '../prefilter/prefilter.js';
import type { TierModels } from '../tiers/tier-models.js';
import type { Vaglio } from '../vaglio/vaglio.js';
import type { TurnEvent } from './turn-events.js';
import type { FinalKind, StepRecordLog, TurnLogRecord, TurnMode } from './turn-record.js';
/** Observations above this many bytes are offloaded during a turn (seed 000's 4 KB). */
export const RUNTIME_OFFLOAD_THRESHOLD = 4096;

/** Lifetime of the entries a turn offloads when nothing else is set: seed 000's hour. */
export const DEFAULT_SCRATCHPAD_TTL_SECONDS = 3600;

/** Options of {@link runTurn}. */
export interface RunTurnOptions {
  query: string;
  model: LanguageModel;
  /** The verified catalog (from `loadCatalog`) and what the loader discarded (logged with the turn). */
  executors: readonly Executor[];
  discarded?: readonly DiscardedExecutor[];
  /** A pre-filter built once over `executors` (built per turn when absent). */
  prefilter?: Prefilter<Executor>;
  scratchpad: Scratchpad;
  session?: string;
  vaglio: Vaglio;
  capSteps?: number;
  capSameExecutor?: number;
  /** `local` (default), `online` or `hybrid` (seed 002, ch. 3). */
  mode?: TurnMode;
  think?: boolean;
  /**
   * How offloaded observations look and which read tool the model gets: `default` (our salient previews and the
   * full `scratchpad_read`) or `metnos` (seed 000: JSON > 4 KB, head 500 + tail 500, `scratchpad_read{scratchpad_id}`).
   */
  scratchpadStyle?: 'default' | 'metnos';
  /** Overrides of the offload policy for this style (its `summarize` wins over `summaries`). */
  offload?: OffloadPolicyOptions;
  /**
   * `[runtime.summaries]`: when enabled, large text outputs get a summary written by the model of its tier (from
   * `tiers`), each request logged in `model_calls` with purpose `summary`.
   */
  summaries?: SummarySettings;
  /** Where turn logs go (`DIR/YYYY-MM-DD.jsonl`); default `$XDG_DATA_HOME/scratchpad/turns`; `false` = no log. */
  turnLogDir?: string | false;
  /** Options for each executor subprocess (timeout, output cap, cwd). */
  executorOptions?: RunExecutorOptions;
  /** Runs an executor (default: the subprocess runner); benchmarks inject an in-process one. */
  execute?: (executor: Executor, args: unknown, options: RunExecutorOptions) => Promise<ExecutorRun>;
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  signal?: AbortSignal;
  /** The tiers (models and prompts); default: every tier served by `model` with the shipped prompts. */
  tiers?: TierModels;
  /** The tier the planner starts on (default `fast`); `model` serves it when `tiers` is absent. */
  tier?: Tier;
  /** `[runtime.hybrid]`: when a hybrid turn goes online (default: code:exec is critical, every failure escalates). */
  hybrid?: HybridSettings;
  /** `escalate_tier`: two failed validations in a row move the rest of the turn one tier up. */
  escalateTier?: boolean;
  /** Lifetime of the entries the turn offloads, in seconds (default 3,600: seed 000's hour). */
  scratchpadTtlSeconds?: number;
  /** Progress, as it happens (see {@link TurnEvent}). */
  onEvent?: (event: TurnEvent) => void;
  /**
   * The mnestome, where piping between executors is recorded and compose looks for chains (seed 002, ch. 12),
   * asked for on first use; none when absent. Its failures (opening it included) are logged on the step.
   */
  mnestome?: () => Mnestome;
}

/** What a turn produced: always a structured result, whatever failed. */
export interface TurnResult {
  turnId: string;
  finalKind: FinalKind;
  finalMessage: string;
  steps: StepRecordLog[];
  record: TurnLogRecord;
  /** The turn log file the record was appended to, if any. */
  logFile?: string;
}
