import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { formatUnknownError } from '../../core/format-error.js';
import {
  createOffloader,
  createOffloadPolicy,
  type OffloadPolicyOptions,
} from '../../scratchpad/offload/index.js';
import type { PreviewStep } from '../../scratchpad/previews/preview-builder.js';
import type { StepRecord } from '../../scratchpad/references/step-values.js';
import type { Scratchpad } from '../../scratchpad/scratchpad.js';
import { DEFAULT_SYSTEM_PROMPT } from '../../tools/default/default-preset.js';
import { createReadTool } from '../../tools/default/read-tool.js';
import { METNOS_SYSTEM_PROMPT } from '../../tools/presets/metnos/metnos-preset.js';
import { createMetnosReadTool } from '../../tools/presets/metnos/metnos-read-tool.js';
import { type ScratchpadTool, toolJsonSchema } from '../../tools/tool.js';
import { TOOL_NAMES } from '../../tools/tool-names.js';
import type { Executor } from '../executors/executor.js';
import type { DiscardedExecutor } from '../executors/load-catalog.js';
import type { ExecutorRun, RunExecutorOptions } from '../executors/run-executor.js';
import { scratchpadDataDir } from '../executors/xdg-dirs.js';
import type { LanguageModel, ModelMessage, ModelToolDefinition } from '../model/language-model.js';
import { createPrefilter, type Prefilter } from '../prefilter/prefilter.js';
import type { Vaglio } from '../vaglio/vaglio.js';
import { sharedArgumentValidator } from './argument-validator.js';
import { findDuplicateStep } from './duplicate-read-guard.js';
import { plannerSystemPrompt } from './planner-prompt.js';
import { runStep, type StepState } from './run-step.js';
import { appendTurnLog, clipForLog } from './turn-log.js';
import type { FinalKind, StepRecordLog, TurnLogRecord } from './turn-record.js';

/** Observations above this many bytes are offloaded during a turn (seed 000's 4 KB). */
export const RUNTIME_OFFLOAD_THRESHOLD = 4096;

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
  mode?: 'local' | 'online' | 'hybrid';
  think?: boolean;
  /**
   * How offloaded observations look and which read tool the model gets: `default` (our salient previews and the
   * full `scratchpad_read`) or `metnos` (seed 000: JSON > 4 KB, head 500 + tail 500, `scratchpad_read{scratchpad_id}`).
   */
  scratchpadStyle?: 'default' | 'metnos';
  /** Overrides of the offload policy for this style. */
  offload?: OffloadPolicyOptions;
  /** Where turn logs go (`DIR/YYYY-MM-DD.jsonl`); default `$XDG_DATA_HOME/scratchpad/turns`; `false` = no log. */
  turnLogDir?: string | false;
  /** Options for each executor subprocess (timeout, output cap, cwd). */
  executorOptions?: RunExecutorOptions;
  /** Runs an executor (default: the subprocess runner); benchmarks inject an in-process one. */
  execute?: (executor: Executor, args: unknown, options: RunExecutorOptions) => Promise<ExecutorRun>;
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  signal?: AbortSignal;
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

/**
 * Runs one turn of the seed 002 planner: empty catalog check, a new turn id, gc of expired scratchpad entries,
 * pre-filter to top-K, then the loop — the model proposes a tool call (native tool calling) → references resolved
 * → arguments validated → vaglio → executor → the observation comes back, offloaded to the scratchpad when large
 * — until a final answer or a cap. Writes one JSONL record per turn and never throws for a failure of the model,
 * an executor or the store: those end the turn with `final_kind = 'error'` and a message that says what to do.
 */
export async function runTurn(options: RunTurnOptions): Promise<TurnResult> {
  const now = options.now ?? Date.now;
  const started = now();
  const turnId = randomUUID();
  const sessionId = options.session ?? 'default';
  const capSteps = options.capSteps ?? 5;
  const capSameExecutor = options.capSameExecutor ?? 2;
  const style = options.scratchpadStyle ?? 'default';
  const steps: StepRecordLog[] = [];
  const record: TurnLogRecord = {
    turn_id: turnId,
    session: sessionId,
    ts_start: started / 1000,
    ts_end: started / 1000,
    user_query: options.query,
    mode: options.mode ?? 'local',
    model: { provider: options.model.provider, modelId: options.model.modelId },
    candidates: [],
    k: { value: 0, reason: 'not run' },
    discarded: (options.discarded ?? []).map((item) => ({ dir: item.dir, reason: item.reason })),
    steps,
    final_message: '',
    final_kind: 'error',
  };
  const finish = async (kind: FinalKind, message: string): Promise<TurnResult> => {
    record.final_kind = kind;
    record.final_message = message;
    record.ts_end = now() / 1000;
    const directory =
      options.turnLogDir === undefined
        ? join(scratchpadDataDir(options.env ?? process.env), 'turns')
        : options.turnLogDir;
    let logFile: string | undefined;
    if (directory !== false) {
      try {
        logFile = await appendTurnLog(directory, record);
      } catch (error) {
        process.emitWarning(`turn log not written: ${(error as Error).message}`);
      }
    }
    return { turnId, finalKind: kind, finalMessage: message, steps, record, ...(logFile ? { logFile } : {}) };
  };

  if (options.executors.length === 0) {
    const discarded = options.discarded?.length
      ? ` ${options.discarded.length} executor(s) were discarded: ${options.discarded.map((item) => `${item.dir}: ${item.reason}`).join('; ')}.`
      : '';
    return finish(
      'error',
      `(empty catalog) No verified executor is available, so nothing can be done.${discarded}`,
    );
  }

  try {
    await options.scratchpad.gc();
  } catch (error) {
    return finish('error', `The scratchpad store is unavailable: ${formatUnknownError(error)}`);
  }
  const session = options.scratchpad.session(sessionId);
  const prefilter = options.prefilter ?? createPrefilter(options.executors);
  const selection = prefilter.select(options.query);
  const candidates = selection.candidates.map((candidate) => candidate.executor);
  record.candidates = candidates.map((executor) => executor.name);
  record.k = { value: selection.k, reason: selection.reason };

  const readTool: ScratchpadTool = style === 'metnos' ? createMetnosReadTool() : createReadTool();
  // Seed 000's calibration for a turn of 3–5 steps: below ~4 KB an observation costs ~1,000 tokens, less than
  // the extra read step offloading it would cost a small local model. Library users get the policy's own default.
  const policy = createOffloadPolicy({
    format: style === 'metnos' ? 'metnos' : 'default',
    readTool: TOOL_NAMES.read,
    threshold: RUNTIME_OFFLOAD_THRESHOLD,
    ...(style === 'metnos' ? { ttlMs: 3_600_000 } : {}),
    ...options.offload,
  });
  const offloader = createOffloader({ session, policy });
  const validator = sharedArgumentValidator;
  const executorTools: ModelToolDefinition[] = candidates.map((executor) => ({
    name: executor.name,
    description: executor.description,
    parameters: executor.args,
  }));
  const readDefinition: ModelToolDefinition = {
    name: readTool.name,
    description: readTool.description,
    parameters: toolJsonSchema(readTool),
  };
  const system = plannerSystemPrompt({
    capSteps,
    scratchpadGuidance: style === 'metnos' ? METNOS_SYSTEM_PROMPT : DEFAULT_SYSTEM_PROMPT,
  });
  const messages: ModelMessage[] = [{ role: 'user', content: options.query }];
  const stepValues: StepRecord[] = [];
  const history: PreviewStep[] = [];
  const states: StepState[] = [];
  const executorCalls = new Map<string, number>();
  let offloadedInTurn = false;
  let lastObservation = '';

  for (;;) {
    // Seed 000 §7: the read tool joins the list as soon as the turn has stored entries.
    const tools = offloadedInTurn ? [...executorTools, readDefinition] : executorTools;
    const callStarted = now();
    let response: Awaited<ReturnType<LanguageModel['doGenerate']>>;
    try {
      response = await options.model.doGenerate({
        system,
        messages,
        tools,
        ...(options.think === undefined ? {} : { think: options.think }),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      return finish('error', formatUnknownError(error));
    }
    const llm = {
      inputTokens: response.usage.inputTokens,
      outputTokens: response.usage.outputTokens,
      latencyMs: now() - callStarted,
    };
    if (response.toolCalls.length === 0) {
      const answer = response.text.trim();
      return finish('answer', answer.length > 0 ? answer : '(the model ended the turn without an answer)');
    }
    messages.push({ role: 'assistant', content: response.text, toolCalls: response.toolCalls });

    for (const [index, call] of response.toolCalls.entries()) {
      const number = steps.length + 1;
      const isBuiltin = call.name === readTool.name && offloadedInTurn;
      const executor = candidates.find((candidate) => candidate.name === call.name);
      if (steps.length >= capSteps) {
        return finish('cap_steps', capMessage(`the step limit (${capSteps})`, lastObservation));
      }
      if (executor && !isBuiltin && (executorCalls.get(executor.name) ?? 0) >= capSameExecutor) {
        const duplicate = findDuplicateStep(executor.name, call.arguments, states);
        if (duplicate === undefined) {
          return finish(
            'cap_same_executor',
            capMessage(`the limit of ${capSameExecutor} calls of ${executor.name}`, lastObservation),
          );
        }
      }
      const log: StepRecordLog = {
        step: number,
        tool: call.name,
        llm: index === 0 ? llm : { inputTokens: 0, outputTokens: 0, latencyMs: 0 },
        rawArgs: clipForLog(call.arguments),
        resolvedArgs: clipForLog(call.arguments),
        outcome: 'executed',
        result: {},
      };
      steps.push(log);
      const state: StepState = { step: number, tool: call.name, args: call.arguments, ran: false };
      states.push(state);
      const observation = await runStep({
        call,
        number,
        log,
        state,
        executor,
        isBuiltin,
        readTool,
        session,
        stepValues,
        history,
        states,
        executorCalls,
        validator,
        offloader,
        options,
        turnId,
      });
      if (observation.offloaded) offloadedInTurn = true;
      lastObservation = observation.text;
      messages.push({
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: observation.text,
        ...(observation.isError ? { isError: true } : {}),
      });
      history.push({
        action: `${call.name} ${JSON.stringify(call.arguments)}`,
        observation: observation.text,
      });
    }
  }
}

function capMessage(limit: string, lastObservation: string): string {
  const last = lastObservation.length > 600 ? `${lastObservation.slice(0, 600)}…` : lastObservation;
  return `I stopped before finishing: I reached ${limit} without a final answer.${last ? ` The last result was: ${last}` : ''}`;
}
