import type { JsonObject } from '../../core/json.js';
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
  /** Why nothing was started (outcome `refused`): its code changed since it was verified, or no sandbox. */
  refused?: 'tampered' | 'sandbox';
  /** What came back: ok, error, the offloaded entry, sizes (never the full content). */
  result: JsonObject;
}

/** One line of `turns/YYYY-MM-DD.jsonl`. */
export interface TurnLogRecord {
  turn_id: string;
  session: string;
  ts_start: number;
  ts_end: number;
  user_query: string;
  mode: 'local' | 'online' | 'hybrid';
  model: { provider: string; modelId: string };
  candidates: string[];
  /** How K was chosen by the pre-filter. */
  k: { value: number; reason: string };
  discarded: Array<{ dir: string; reason: string }>;
  steps: StepRecordLog[];
  final_message: string;
  final_kind: FinalKind;
}
