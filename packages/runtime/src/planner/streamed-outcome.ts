import type { JsonObject } from 'llm-scratchpad';
import type { ExecutorOutcome } from '../executors/executor-outcome.js';
import type { ExecutorRun } from '../executors/run-executor.js';
import type { ReceivedContent } from './content-intake.js';
import type { StepContext } from './step-context.js';

/**
 * The outcome with what came on the content channel: held bytes become its `content` (text, or base64 for
 * binary), as if the executor had put them in its JSON. Content the executor did not declare (it failed, was
 * stopped, or sent more than its bound) is not a result: an entry already written for it is deleted.
 */
export async function withStreamedContent(
  context: StepContext,
  run: ExecutorRun,
  received: ReceivedContent,
): Promise<ExecutorOutcome> {
  const { outcome } = run;
  if (!run.contentStream) {
    if (received.kind === 'stored')
      await context.session.delete({ id: received.entry.id }).catch(() => undefined);
    return outcome;
  }
  if (received.kind === 'stored') return outcome;
  const bytes = received.kind === 'held' ? received.bytes : Buffer.alloc(0);
  return {
    ...outcome,
    content: run.contentStream === 'text' ? bytes.toString('utf8') : bytes.toString('base64'),
  };
}

/** The outcome without its content (what references see beside a stored entry). */
export function withoutContent(outcome: ExecutorOutcome): JsonObject {
  const { content: _content, ...shell } = outcome;
  return shell as JsonObject;
}
