/**
 * What a model call was for: a local step, an online plan, the online answer, the vaglio's judge, or the summary
 * preview of a large output (`[runtime.summaries]`).
 */
export type ModelCallPurpose = 'step' | 'plan' | 'answer' | 'judge' | 'summary';

/** One request to a model, as the turn log records it (no prompt text: sizes and timing only). */
export interface ModelCallLog {
  purpose: ModelCallPurpose;
  /** The tier asked for (`fast`, `middle`, `wise`) and the configured tier that served it (aliasing down). */
  tier: string;
  servedBy: string;
  provider: string;
  modelId: string;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  /** Why the call failed, when it did (the error in its one text form). */
  error?: string;
}
