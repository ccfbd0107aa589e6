import type { JsonObject } from 'llm-scratchpad';
import type { Tier } from '../config/tier.js';
import type { ModelCallLog } from '../model/model-call.js';
import type { SandboxStatus } from '../sandbox/sandbox.js';
import type { Verdict } from '../vaglio/vaglio-action.js';

/** How a turn ended (seed 002). */
export type FinalKind = 'answer' | 'error' | 'cap_steps' | 'cap_same_executor';

/** What happened to one proposed tool call. */
export type StepOutcome =
  | 'executed'
  | 'builtin'
  | 'unknown_tool'
  | 'invalid_arguments'
  | 'reference_error'
  | 'denied'
  | 'duplicate_read'
  | 'refused';

/** One step of a turn, as the turn log records it (seed 002, ch. 11). */
export interface StepRecordLog {
  /** 1-based. */
  step: number;
  tool: string;
  llm: { inputTokens: number; outputTokens: number; latencyMs: number };
  /** Arguments as the model wrote them. */
  rawArgs: unknown;
  /** After `{{stepN.field}}` substitution (long strings clipped in the log). */
  resolvedArgs: unknown;
  outcome: StepOutcome;
  /** `{stepN.field}` references substituted, and the steps they came from. */
  references?: string[];
  validation?: { ok: boolean; errors?: string[] };
  vaglio?: Verdict;
  /** How the executor was isolated: `bubblewrap`, `off` (the user turned the sandbox off), `unavailable`. */
  sandbox?: SandboxStatus;
  /** Facts of the executor process; `network` says whether it could reach the network. */
  run?: {
    exitCode: number | null;
    timedOut: boolean;
    outputCapped: boolean;
    durationMs: number;
    network: boolean;
  };
  /** Why the call is refused: its code changed since it was verified, no sandbox, or (`git`) it changed git metadata, undone after it. */
  refused?: 'tampered' | 'sandbox' | 'git';
  /**
   * What came back: ok, error, the offloaded entry, sizes, and `observation`: the text the model read back for
   * the step, whichever way it ended (inline, offloaded, denied, refused), clipped to 8,000 characters with the
   * clip stated (`… [N more chars]`). An offloaded result also has `shownChars`.
   */
  result: JsonObject;
  /** The tier whose model proposed the call (it changes when `escalate_tier` moves the turn up). */
  tier?: Tier;
  /** What the step wrote to the mnestome, the compose outcome of a proto-mnest, or the mnestome's failure. */
  mnestome?: JsonObject;
}

/** One line of `turns/YYYY-MM-DD.jsonl`. */
export interface TurnLogRecord {
  turn_id: string;
  session: string;
  ts_start: number;
  ts_end: number;
  user_query: string;
  mode: TurnMode;
  model: { provider: string; modelId: string };
  candidates: string[];
  /** How K was chosen by the pre-filter. */
  k: { value: number; reason: string };
  discarded: Array<{ dir: string; reason: string }>;
  steps: StepRecordLog[];
  final_message: string;
  final_kind: FinalKind;
  /** Every model request of the turn, in order: planning steps, the online plan and answer, judge calls. */
  model_calls: ModelCallLog[];
  /** The online plan: the calls the model proposed in one reply, with the verdicts given before any ran. */
  plan?: PlannedCall[];
  /** Hybrid turns: the rule that sent the turn online, or `null` when it stayed local. */
  escalation?: EscalationLog | null;
  /** Hybrid turns: each attempt (`[local]`, `[online]`, or `[local, online]` after an escalation). */
  attempts?: TurnAttemptLog[];
  /** `escalate_tier`: where the turn moved up a tier after two failed validations. */
  tier_escalations?: TierEscalationLog[];
}

/** How the planner loops (seed 002): `local` multistep, `online` single-shot, `hybrid` local with escalation. */
export type TurnMode = 'local' | 'online' | 'hybrid';

/** One call of an online plan. `step` is its position: what `{{stepN.field}}` refers to. */
export interface PlannedCall {
  step: number;
  tool: string;
  /** As the model wrote them (long strings clipped). */
  args: unknown;
  /** The vaglio's verdict on the proposed arguments, given before any step ran. */
  verdict?: Verdict;
}

/** Why a hybrid turn went online. */
export interface EscalationLog {
  rule: 'critical_capabilities' | 'escalate_on';
  reason: string;
}

/** One attempt of a hybrid turn. */
export interface TurnAttemptLog {
  mode: 'local' | 'online';
  /** The tier it started on. */
  tier: Tier;
  /** `null` when the tier's model could not be built (the attempt ended with `error` at once). */
  model: { provider: string; modelId: string } | null;
  steps: StepRecordLog[];
  plan?: PlannedCall[];
  final_kind: FinalKind;
  final_message: string;
}

/** A move of the rest of a turn to a higher tier. */
export interface TierEscalationLog {
  /** The step whose second failed validation moved the turn. */
  step: number;
  from: Tier;
  to: Tier;
  reason: string;
}
