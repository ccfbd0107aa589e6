import type { Offloader } from 'llm-scratchpad';
import type { PreviewStep } from 'llm-scratchpad';
import type { StepRecord } from 'llm-scratchpad';
import type { SessionScratchpad } from 'llm-scratchpad';
import type { ScratchpadTool } from 'llm-scratchpad/tools';
import type { Executor } from '../executors/executor.js';
import type { ModelToolCall } from '../model/language-model.js';
import type { JudgeBudget } from '../vaglio/judge-budget.js';
import type { Verdict } from '../vaglio/vaglio-action.js';
import type { ArgumentValidator } from './argument-validator.js';
import type { RunTurnOptions } from './turn-options.js';
import type { StepRecordLog } from './turn-record.js';
/** What the loop remembers of each step, for the duplicate-read guard. */
export interface StepState {
  step: number;
  tool: string;
  args: unknown;
  ran: boolean;
}

/** Everything one step needs from its turn. */
export interface StepContext {
  call: ModelToolCall;
  number: number;
  log: StepRecordLog;
  state: StepState;
  executor: Executor | undefined;
  isBuiltin: boolean;
  readTool: ScratchpadTool;
  session: SessionScratchpad;
  stepValues: StepRecord[];
  history: PreviewStep[];
  states: StepState[];
  executorCalls: Map<string, number>;
  validator: ArgumentValidator;
  offloader: Offloader;
  options: RunTurnOptions;
  turnId: string;
  /** Model judge calls left in the turn. */
  judgeBudget?: JudgeBudget;
  /** A verdict already given on the proposed arguments; used when no reference changed them. */
  prejudged?: Verdict;
}
