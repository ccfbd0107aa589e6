import type { AttemptEnd } from '../planner/turn-context.js';
import type { StepRecordLog } from '../planner/turn-record.js';

/** Longest text kept from one result or message in a summary. */
const MAX_PART_CHARS = 300;

/**
 * What a failed local attempt did, for the online retry's request: each step (tool, arguments, outcome, a clipped
 * result) and how it ended, so the new plan can avoid the same dead end.
 */
export function summarizeAttempt(steps: readonly StepRecordLog[], end: AttemptEnd): string {
  const lines = steps.map((step) => {
    const result = step.result.error ?? (step.result.offloaded ? `stored as ${step.result.name}` : 'ok');
    return `${step.step}. ${step.tool} ${clip(JSON.stringify(step.rawArgs))} → ${step.outcome}: ${clip(String(result))}`;
  });
  return [
    `A first attempt with a local model ended with ${end.kind}: ${clip(end.message)}`,
    lines.length > 0 ? `Its steps:\n${lines.join('\n')}` : 'It made no tool call.',
    'Plan the whole task again, avoiding what went wrong. Step numbers in your plan start again at 1.',
  ].join('\n');
}

function clip(text: string): string {
  return text.length > MAX_PART_CHARS ? `${text.slice(0, MAX_PART_CHARS)}…` : text;
}
