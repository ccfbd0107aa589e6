import { ScratchpadError } from 'llm-scratchpad';
import { formatError } from 'llm-scratchpad';
import type { JsonObject } from 'llm-scratchpad';
import { containsReference, resolveReferences } from 'llm-scratchpad';
import { runToolUnredacted } from 'llm-scratchpad/tools';
import type { ExecutorOutcome } from '../executors/executor-outcome.js';
import { runExecutorDetailed } from '../executors/run-executor.js';
import { invalidToolArguments } from '../model/language-model.js';
import { denialObservation } from '../vaglio/denial-observation.js';
import { createContentIntake } from './content-intake.js';
import { cutNotice } from './cut-notice.js';
import { duplicateReadObservation, findDuplicateStep } from './duplicate-read-guard.js';
import { recordPiping, registerProtoMnest } from './mnestome-hooks.js';
import { recordRun } from './record-run.js';
import type { StepContext } from './step-context.js';
import { withoutContent, withStreamedContent } from './streamed-outcome.js';
import { clipForLog } from './turn-log.js';
import type { StepRecordLog } from './turn-record.js';

export type { StepContext, StepState } from './step-context.js';

/** What the model reads back for one step. */
export interface StepObservation {
  text: string;
  isError: boolean;
  offloaded: boolean;
}

/** One proposed call, from references to observation. Every failure becomes an observation the model can read. */
export async function runStep(context: StepContext): Promise<StepObservation> {
  const { call, number, log, state, executor, options } = context;
  const fail = (
    outcome: StepRecordLog['outcome'],
    error: string,
    extra: JsonObject = {},
    observed: JsonObject = {},
  ): StepObservation => {
    log.outcome = outcome;
    log.result = { ok: false, error, ...extra };
    const value = { ok: false, error, ...observed };
    context.stepValues.push({ step: number, tool: call.name, value: { kind: 'inline', value } });
    return { text: JSON.stringify(value), isError: true, offloaded: false };
  };

  const malformed = invalidToolArguments(call);
  if (malformed)
    return fail(
      'invalid_arguments',
      `The arguments of ${call.name} are not valid JSON (${malformed.error}). Send a JSON object.`,
    );

  let args: unknown = call.arguments;
  if (containsReference(args)) {
    try {
      const resolved = await resolveReferences(args, { session: context.session, steps: context.stepValues });
      args = resolved.value;
      log.references = resolved.references;
      log.resolvedArgs = clipForLog(args);
      state.args = args;
    } catch (error) {
      if (ScratchpadError.isInstance(error)) return fail('reference_error', formatError(error));
      throw error;
    }
  }

  if (context.isBuiltin) {
    log.outcome = 'builtin';
    const output = await runToolUnredacted(context.readTool, args, {
      session: context.session,
      turn: context.turnId,
      step: number,
    });
    log.result = { ok: !output.isError, chars: output.text.length };
    context.stepValues.push({
      step: number,
      tool: call.name,
      value: { kind: 'inline', value: output.data ?? output.text },
    });
    return {
      text: await context.session.scratchpad.redactor.redact(output.text),
      isError: output.isError ?? false,
      offloaded: false,
    };
  }

  if (!executor) {
    const available = [...new Set(context.options.executors.map((item) => item.name))];
    // Seed 002, ch. 12: a nonexistent executor fed by earlier steps is a proto-mnest; compose may know a way.
    const proto = await registerProtoMnest(context, call.name, call.arguments);
    if (proto) log.mnestome = proto.log;
    return fail(
      'unknown_tool',
      `nonexistent executor: ${call.name}. Use one of the tools you were given (${available.slice(0, 40).join(', ')}).`,
      {},
      proto?.synt ? { synt: { ...proto.synt } } : {},
    );
  }

  const problems = context.validator.check(executor.args, args);
  log.validation = problems ? { ok: false, errors: problems } : { ok: true };
  if (problems)
    return fail('invalid_arguments', `Invalid arguments for ${executor.name}: ${problems.join('; ')}.`);

  const duplicate = findDuplicateStep(executor.name, args, context.states.slice(0, -1));
  if (duplicate !== undefined) {
    log.outcome = 'duplicate_read';
    log.result = { ok: false, duplicateOf: duplicate };
    const text = duplicateReadObservation(executor.name, duplicate);
    context.stepValues.push({
      step: number,
      tool: call.name,
      value: { kind: 'inline', value: JSON.parse(text) },
    });
    return { text, isError: true, offloaded: false };
  }

  const verdict =
    context.prejudged && log.references === undefined
      ? context.prejudged
      : await options.vaglio.review(
          { executor: executor.name, capabilities: executor.capabilities, args, intent: options.query },
          context.judgeBudget,
          options.signal,
        );
  log.vaglio = verdict;
  if (!verdict.approved) {
    log.outcome = 'denied';
    const denial = denialObservation(verdict, executor.name);
    log.result = { ok: false, blocked_by: verdict.blocked_by };
    context.stepValues.push({ step: number, tool: call.name, value: { kind: 'inline', value: denial } });
    return { text: JSON.stringify(denial), isError: true, offloaded: false };
  }

  context.executorCalls.set(executor.name, (context.executorCalls.get(executor.name) ?? 0) + 1);
  state.ran = true;
  const execute = options.execute ?? runExecutorDetailed;
  const intake = createContentIntake(context.offloader, {
    tool: executor.name,
    turn: context.turnId,
    step: number,
  });
  const run = await execute(executor, args, {
    ...options.executorOptions,
    ...(options.signal ? { signal: options.signal } : {}),
    receiveContent: intake.receive,
  });
  recordRun(log, run);
  const received = intake.received();
  const outcome: ExecutorOutcome = await withStreamedContent(context, run, received);
  if (outcome.ok) {
    const piping = await recordPiping(context, executor.name);
    if (piping) log.mnestome = piping;
  }
  // A result a bound cut says so on its first line, whichever way it is shown.
  const notice = cutNotice(outcome.metadata);
  const noticed = (text: string) => (notice ? `${notice}\n${text}` : text);
  try {
    const observed = { task: options.query, history: context.history };
    const processed =
      received.kind === 'stored' && run.contentStream
        ? await context.offloader.describeStored({
            tool: executor.name,
            entry: received.entry,
            metadata: outcome.metadata ?? {},
            shell: withoutContent(outcome),
            context: observed,
          })
        : await context.offloader.process({
            tool: executor.name,
            result: outcome,
            turn: context.turnId,
            step: number,
            context: observed,
          });
    if (processed.offloaded) {
      log.result = {
        ok: outcome.ok,
        offloaded: true,
        entry: processed.entry.id,
        name: processed.entry.name,
        bytes: processed.entry.bytes,
        // What the model was shown instead (the synthetic observation), for `scratchpad ui` and the context picture.
        shownChars: noticed(processed.text).length,
        // With [runtime.summaries]: where the preview came from (model, cache, or the fallback and why).
        ...(processed.summary ? { summary: { ...processed.summary } } : {}),
      };
      context.stepValues.push({
        step: number,
        tool: call.name,
        value: {
          kind: 'stored',
          entryId: processed.entry.id,
          storedField: processed.storedField,
          shell: processed.shell ?? {},
        },
      });
      return { text: noticed(processed.text), isError: !outcome.ok, offloaded: true };
    }
    log.result = {
      ok: outcome.ok,
      ...(outcome.error ? { error: outcome.error } : {}),
      chars: noticed(processed.text).length,
    };
    context.stepValues.push({ step: number, tool: call.name, value: { kind: 'inline', value: outcome } });
    return { text: noticed(processed.text), isError: !outcome.ok, offloaded: false };
  } catch (error) {
    if (!ScratchpadError.isInstance(error)) throw error;
    // The store failed: the model still gets the observation (clipped) rather than nothing.
    const text = await context.session.scratchpad.redactor.redact(JSON.stringify(outcome));
    log.result = { ok: outcome.ok, storeError: error.code };
    context.stepValues.push({ step: number, tool: call.name, value: { kind: 'inline', value: outcome } });
    return {
      text: noticed(
        text.length > 8000
          ? `${text.slice(0, 8000)}… [clipped: the scratchpad store failed: ${error.message}]`
          : text,
      ),
      isError: !outcome.ok,
      offloaded: false,
    };
  }
}
