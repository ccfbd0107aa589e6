import type { Tier } from '../config/runtime-config.js';
import type { ModelCallPurpose } from '../model/model-call.js';
import type { FinalKind, PlannedCall, StepRecordLog, TurnMode } from './turn-record.js';

/**
 * What a turn reports while it works, in order, for progress displays (`scratchpad run` prints them on stderr).
 * Events carry what the turn log records; nothing here is needed to run a turn.
 */
export type TurnEvent =
  | { type: 'turn-start'; turnId: string; mode: TurnMode; candidates: string[] }
  | { type: 'attempt-start'; mode: 'local' | 'online'; tier: Tier; provider: string; modelId: string }
  | { type: 'model-call'; purpose: ModelCallPurpose; tier: Tier; provider: string; modelId: string }
  | {
      type: 'model-reply';
      purpose: ModelCallPurpose;
      tier: Tier;
      latencyMs: number;
      /** The model's text (reasoning or answer), shown with `--verbose`. */
      text: string;
      toolCalls: number;
    }
  | { type: 'plan'; calls: PlannedCall[] }
  | { type: 'step-end'; step: StepRecordLog /** From the proposal to the observation. */; latencyMs: number }
  | { type: 'escalation'; rule: string; reason: string }
  | { type: 'tier-escalation'; step: number; from: Tier; to: Tier }
  | { type: 'turn-end'; turnId: string; finalKind: FinalKind; logFile?: string };
