import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { formatUnknownError } from 'llm-scratchpad';
import { createOffloader, createOffloadPolicy } from 'llm-scratchpad';
import { DEFAULT_MAX_ANSWER_BYTES } from 'llm-scratchpad/tools';
import { DEFAULT_SYSTEM_PROMPT } from 'llm-scratchpad/tools';
import { createReadTool } from 'llm-scratchpad/tools';
import { METNOS_SYSTEM_PROMPT } from 'llm-scratchpad/tools';
import { createMetnosReadTool } from 'llm-scratchpad/tools';
import { type ScratchpadTool, toolJsonSchema } from 'llm-scratchpad/tools';
import { TOOL_NAMES } from 'llm-scratchpad/tools';
import { scratchpadDataDir } from 'llm-scratchpad/extension';
import { MODE_STRATEGIES } from '../modes/mode-strategies.js';
import { createPrefilter } from '../prefilter/prefilter.js';
import { singleModelTiers } from '../tiers/tier-models.js';
import { sharedArgumentValidator } from './argument-validator.js';
import type { TurnContext } from './turn-context.js';
import type { TurnEvent } from './turn-events.js';
import { appendTurnLog } from './turn-log.js';
import {
  DEFAULT_SCRATCHPAD_TTL_SECONDS,
  RUNTIME_OFFLOAD_THRESHOLD,
  type RunTurnOptions,
  type TurnResult,
} from './turn-options.js';
import type { FinalKind, TurnLogRecord } from './turn-record.js';
import { turnSummarize } from './turn-summarizer.js';

export {
  DEFAULT_SCRATCHPAD_TTL_SECONDS,
  RUNTIME_OFFLOAD_THRESHOLD,
  type RunTurnOptions,
  type TurnResult,
} from './turn-options.js';

/**
 * Runs one turn of the seed 002 planner: empty catalog check, a new turn id, gc of expired scratchpad entries,
 * pre-filter to top-K, then the mode's strategy (`local` multistep, `online` single-shot, `hybrid` local with
 * escalation) over the shared step execution — references resolved → arguments validated → vaglio → executor →
 * observation offloaded when large. Writes one JSONL record per turn and never throws for a failure of the model,
 * an executor or the store: those end the turn with `final_kind = 'error'` and a message that says what to do.
 */
export async function runTurn(options: RunTurnOptions): Promise<TurnResult> {
  const now = options.now ?? Date.now;
  const started = now();
  const turnId = randomUUID();
  const record: TurnLogRecord = {
    turn_id: turnId,
    session: options.session ?? 'default',
    ts_start: started / 1000,
    ts_end: started / 1000,
    user_query: options.query,
    mode: options.mode ?? 'local',
    model: { provider: options.model.provider, modelId: options.model.modelId },
    candidates: [],
    k: { value: 0, reason: 'not run' },
    discarded: (options.discarded ?? []).map((item) => ({ dir: item.dir, reason: item.reason })),
    steps: [],
    final_message: '',
    final_kind: 'error',
    model_calls: [],
  };
  const emit = (event: TurnEvent): void => {
    try {
      options.onEvent?.(event);
    } catch (error) {
      process.emitWarning(`turn progress handler failed: ${formatUnknownError(error)}`);
    }
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
    emit({ type: 'turn-end', turnId, finalKind: kind, ...(logFile ? { logFile } : {}) });
    return {
      turnId,
      finalKind: kind,
      finalMessage: message,
      steps: record.steps,
      record,
      ...(logFile ? { logFile } : {}),
    };
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

  // Seed 000 §6: expired entries of earlier turns go at the start of each turn.
  try {
    await options.scratchpad.gc();
  } catch (error) {
    return finish('error', `The scratchpad store is unavailable: ${formatUnknownError(error)}`);
  }
  const turn = createTurnContext(options, { turnId, now, record, emit });
  emit({ type: 'turn-start', turnId, mode: record.mode, candidates: record.candidates });
  const run = await MODE_STRATEGIES[record.mode](turn);
  record.steps = run.attempt.log.steps;
  if (run.attempt.log.plan) record.plan = run.attempt.log.plan;
  if (run.attempts) record.attempts = run.attempts.map((attempt) => attempt.log);
  return finish(run.end.kind, run.end.message);
}

/** Builds what every mode of the turn shares: candidates, tools, offloader, tiers, budget. */
function createTurnContext(
  options: RunTurnOptions,
  base: Pick<TurnContext, 'turnId' | 'now' | 'record' | 'emit'>,
): TurnContext {
  const style = options.scratchpadStyle ?? 'default';
  const session = options.scratchpad.session(base.record.session);
  const prefilter = options.prefilter ?? createPrefilter(options.executors);
  const selection = prefilter.select(options.query);
  const candidates = selection.candidates.map((candidate) => candidate.executor);
  base.record.candidates = candidates.map((executor) => executor.name);
  base.record.k = { value: selection.k, reason: selection.reason };
  // The default read is bounded like the default preset's (32 KiB, then the call that continues): one read of a
  // whole offloaded log must not put back into the context what offloading kept out of it. Seed 000's read keeps
  // its own `full` mode.
  const readTool: ScratchpadTool =
    style === 'metnos'
      ? createMetnosReadTool()
      : createReadTool({ maxAnswerBytes: DEFAULT_MAX_ANSWER_BYTES });
  // Seed 000's calibration for a turn of 3–5 steps: below ~4 KB an observation costs ~1,000 tokens, less than
  // the extra read step offloading it would cost a small local model. Library users get the policy's own default.
  // Entries live for seed 000's hour (gc at the next turn's start), whatever the style.
  const tiers = options.tiers ?? singleModelTiers(options.model);
  const policy = createOffloadPolicy({
    format: style === 'metnos' ? 'metnos' : 'default',
    readTool: TOOL_NAMES.read,
    threshold: RUNTIME_OFFLOAD_THRESHOLD,
    ttlMs: (options.scratchpadTtlSeconds ?? DEFAULT_SCRATCHPAD_TTL_SECONDS) * 1000,
    ...(options.summaries?.enabled ? { summarize: turnSummarize(options.summaries, tiers, base) } : {}),
    ...options.offload,
  });
  return {
    ...base,
    options,
    session,
    selection,
    candidates,
    executorTools: candidates.map((executor) => ({
      name: executor.name,
      description: executor.description,
      parameters: executor.args,
    })),
    readTool,
    readDefinition: {
      name: readTool.name,
      description: readTool.description,
      parameters: toolJsonSchema(readTool),
    },
    offloader: createOffloader({ session, policy }),
    validator: sharedArgumentValidator,
    scratchpadGuidance: style === 'metnos' ? METNOS_SYSTEM_PROMPT : DEFAULT_SYSTEM_PROMPT,
    capSteps: options.capSteps ?? 5,
    capSameExecutor: options.capSameExecutor ?? 2,
    tiers,
    planningTier: options.tier ?? 'fast',
    judgeBudget: options.vaglio.turnBudget(),
  };
}
