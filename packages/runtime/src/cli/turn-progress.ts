import { formatBytes } from 'llm-scratchpad/extension';
import type { TurnEvent } from '../planner/turn-events.js';
import type { StepRecordLog } from '../planner/turn-record.js';
import { neutraliseControlCharacters } from 'llm-scratchpad/cli';

/** Options of {@link createTurnProgress}. */
export interface TurnProgressOptions {
  /** Also print the model's own text (its reasoning before tool calls, its answer). */
  verbose?: boolean;
}

/**
 * Prints a turn's progress as it happens, one line per event (`scratchpad run` writes them on stderr): each model
 * request and its latency, each step with its tool, arguments in short, the vaglio's verdict, where the result
 * went and how long it took, escalations, and where the turn was logged.
 */
export function createTurnProgress(
  stream: NodeJS.WritableStream,
  options: TurnProgressOptions = {},
): (event: TurnEvent) => void {
  // Model text and tool results are hostile: no escape sequence reaches the terminal.
  const write = (line: string) => stream.write(`${neutraliseControlCharacters(line)}\n`);
  return (event) => {
    switch (event.type) {
      case 'turn-start':
        write(
          `turn ${event.turnId.slice(0, 8)} · mode ${event.mode} · ${event.candidates.length} candidates: ${event.candidates.join(', ')}`,
        );
        return;
      case 'attempt-start':
        write(`${event.mode} attempt on ${event.tier} (${event.provider} ${event.modelId})`);
        return;
      case 'model-call':
        write(`  ${event.tier} model: ${PURPOSE[event.purpose]}…`);
        return;
      case 'model-reply': {
        const calls =
          event.toolCalls > 0 ? `${event.toolCalls} tool call${event.toolCalls > 1 ? 's' : ''}` : 'text';
        write(`  ${event.tier} model answered in ${duration(event.latencyMs)} (${calls})`);
        if (options.verbose && event.text.trim() !== '') write(indent(event.text.trim()));
        return;
      }
      case 'plan':
        write(
          `  plan: ${event.calls.map((call) => `${call.step}. ${call.tool} ${short(call.args)}`).join(' · ')}`,
        );
        return;
      case 'step-end':
        write(`  ${stepLine(event.step)} · ${duration(event.latencyMs)}`);
        return;
      case 'escalation':
        write(`escalation to online (${event.rule}): ${event.reason}`);
        return;
      case 'tier-escalation':
        write(`  tier ${event.from} → ${event.to} after step ${event.step}: two failed validations in a row`);
        return;
      case 'turn-end':
        write(`${event.finalKind}${event.logFile ? ` · logged in ${event.logFile}` : ''}`);
        return;
    }
  };
}

const PURPOSE = {
  step: 'choosing the next step',
  plan: 'planning the whole task',
  answer: 'writing the answer from the results',
  judge: 'judging an action',
  summary: 'summarizing a large output',
} as const;

function stepLine(step: StepRecordLog): string {
  const parts = [`step ${step.step} ${step.tool} ${short(step.rawArgs)} → ${step.outcome}`];
  if (step.vaglio) {
    const score = step.vaglio.score === null ? '' : ` ${step.vaglio.score.toFixed(2)}`;
    const verdict = step.vaglio.approved ? 'approved' : `denied by the ${step.vaglio.blocked_by}`;
    parts.push(`vaglio ${verdict}${score} (${step.vaglio.judge_kind})`);
  }
  const result = step.result;
  if (result.offloaded === true)
    parts.push(`stored as ${String(result.name)} (${formatBytes(Number(result.bytes))})`);
  else if (typeof result.error === 'string') parts.push(short(result.error, 120));
  else if (typeof result.chars === 'number') parts.push(`${result.chars} chars inline`);
  const mnestome = step.mnestome as
    | {
        recorded?: Array<{ src: string; dst: string }>;
        synt?: { state: string; first_hop?: string };
        error?: string;
      }
    | undefined;
  for (const passage of mnestome?.recorded ?? []) parts.push(`passage ${passage.src} → ${passage.dst}`);
  if (mnestome?.synt)
    parts.push(
      `compose: ${mnestome.synt.state}${mnestome.synt.first_hop ? ` via ${mnestome.synt.first_hop}` : ''}`,
    );
  if (mnestome?.error) parts.push(`mnestome not updated: ${short(mnestome.error, 120)}`);
  return parts.join(' · ');
}

/** A value in one short line: JSON, cut at `max` characters. */
function short(value: unknown, max = 80): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const line = text.replace(/\s+/g, ' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    | ${line}`)
    .join('\n');
}
