import type { FinalKind } from '../planner/turn-record.js';

/** How a local attempt may end that makes a hybrid turn retry online (`escalate_on`). */
export type EscalationTrigger = Extract<FinalKind, 'cap_steps' | 'cap_same_executor' | 'error'>;

/** Every {@link EscalationTrigger}. */
export const ESCALATION_TRIGGERS: readonly EscalationTrigger[] = ['cap_steps', 'cap_same_executor', 'error'];

/** `[runtime.hybrid]`: when a hybrid turn leaves the local loop for an online plan. */
export interface HybridSettings {
  /**
   * `critical_capabilities`: a turn whose top-ranked candidate (pre-filter score above zero) has one of these
   * capabilities goes online from the start.
   */
  criticalCapabilities: string[];
  /** `escalate_on`: a local attempt that ends this way is retried once online. */
  escalateOn: EscalationTrigger[];
}

/** Defaults: code execution is critical, and every way a local attempt can fail escalates. */
export function defaultHybridSettings(): HybridSettings {
  return { criticalCapabilities: ['code:exec'], escalateOn: [...ESCALATION_TRIGGERS] };
}
