import { formatUnknownError } from 'llm-scratchpad';
import type { JsonObject } from 'llm-scratchpad';
import { compose } from '../compose/compose.js';
import type { SyntOutcome } from '../compose/synt-outcome.js';
import { EXECUTOR_NAME_PATTERN } from '../executors/executor-manifest.js';
import { buildDesiredSignature, type SignatureInput } from '../mnestome/desired-signature.js';
import type { StepContext } from './step-context.js';

const STEP_REFERENCE = /^step(\d+)\.(.+)$/;

/**
 * The earlier steps a call's resolved `{{stepN.field}}` references point at whose tool really ran as an executor
 * (not the scratchpad's read tool, not a nonexistent executor, not a denied or failed call): the sources of a
 * passage (seed 002, ch. 12).
 */
function pipedSources(context: StepContext): SignatureInput[] {
  const sources: SignatureInput[] = [];
  for (const reference of context.log.references ?? []) {
    const match = STEP_REFERENCE.exec(reference);
    if (!match) continue;
    const step = context.states.find((state) => state.step === Number(match[1]));
    if (step?.ran && step.tool !== context.readTool.name)
      sources.push({ from: step.tool, field: match[2] as string });
  }
  return sources;
}

function distinct(sources: readonly SignatureInput[]): string[] {
  return [...new Set(sources.map((source) => source.from))];
}

/**
 * `record_passing` after a successful step that piped an earlier executor's output into `executor`. Fail-safe:
 * a mnestome error is returned for the step log, never thrown. `undefined` when nothing was piped.
 */
export async function recordPiping(context: StepContext, executor: string): Promise<JsonObject | undefined> {
  const sources = pipedSources(context);
  if (!context.options.mnestome || sources.length === 0) return undefined;
  const at = (context.options.now ?? Date.now)();
  try {
    const mnestome = context.options.mnestome();
    const recorded: JsonObject[] = [];
    for (const src of distinct(sources)) {
      const passage = await mnestome.recordPassing({ src, dst: executor, dstExists: true, at });
      recorded.push({ src, dst: executor, dst_exists: true, weight: passage.weight, uses: passage.uses });
    }
    return { recorded };
  } catch (error) {
    return { error: formatUnknownError(error) };
  }
}

/** What a call to a nonexistent executor left: the step log's `mnestome` field and the observation's `synt`. */
export interface ProtoMnestOutcome {
  log: JsonObject;
  synt?: SyntOutcome;
}

/**
 * A call to a nonexistent executor whose arguments piped earlier steps: registers the proto-mnests (with the
 * desired signature) and runs compose-only synthesis at once. Fail-safe: any error of the mnestome or the composer
 * is returned for the step log and the observation stays the default one. `undefined` when there was no piping,
 * no mnestome, or the name is not one an executor could have.
 */
export async function registerProtoMnest(
  context: StepContext,
  name: string,
  args: unknown,
): Promise<ProtoMnestOutcome | undefined> {
  const sources = pipedSources(context);
  if (!context.options.mnestome || sources.length === 0) return undefined;
  if (!EXECUTOR_NAME_PATTERN.test(name) || name === context.readTool.name) return undefined;
  if (context.options.executors.some((executor) => executor.name === name)) return undefined;
  const signature = buildDesiredSignature(name, args, sources);
  const at = (context.options.now ?? Date.now)();
  try {
    const mnestome = context.options.mnestome();
    const recorded: JsonObject[] = [];
    for (const src of distinct(sources)) {
      const passage = await mnestome.recordPassing({
        src,
        dst: name,
        dstExists: false,
        desiredSignature: signature,
        at,
      });
      recorded.push({ src, dst: name, dst_exists: false, weight: passage.weight, uses: passage.uses });
    }
    const synt = await compose({
      sources: distinct(sources),
      signature,
      mnestome,
      catalog: context.options.executors,
    });
    return {
      log: { recorded, desired_signature: signature as unknown as JsonObject, synt: { ...synt } },
      synt,
    };
  } catch (error) {
    return { log: { error: formatUnknownError(error) } };
  }
}
