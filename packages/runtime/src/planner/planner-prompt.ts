import { TOOL_NAMES } from 'llm-scratchpad/tools';

/** Options of {@link plannerSystemPrompt}. */
export interface PlannerPromptOptions {
  capSteps: number;
  /** Default 2. */
  capSameExecutor?: number;
  /** The tier's point of view, put first (`prompts/<tier>.md`). */
  tierPrompt?: string;
  /** Extra guidance from the scratchpad preset (how offloaded results look and how to read them). */
  scratchpadGuidance: string;
  now?: Date;
}

/**
 * The planner's system prompt: how a turn works, the `{{stepN.field}}` rule (the seed's POC bug: referencing a
 * field the observation does not have), and how to read stored results.
 */
export function plannerSystemPrompt(options: PlannerPromptOptions): string {
  const tier = options.tierPrompt ? `${options.tierPrompt}\n\n` : '';
  return `${tier}You are the planner of a local assistant. You act by calling the tools you are given, one step at a time, and you end the turn by answering the user in plain text without calling a tool.
- Call a tool only when you need its result; when you have what the user asked for, answer directly and briefly.
- You have at most ${options.capSteps} tool calls in this turn, and at most ${options.capSameExecutor ?? 2} calls of the same tool. Do not repeat a call whose result you already have.
- To pass a previous step's output to a tool, write {{stepN.field}} as the argument value: N is the step number (1 = your first tool call), field is a key of that step's observation, nested with dots ({{step1.content}}, {{step1.metadata.path}}). The runtime substitutes the full value, even when you only saw a preview of it. Only reference fields that the observation actually has. {{scratchpad:NAME}} inserts a stored entry.
- Large observations are stored in the scratchpad and you see a preview instead. Never guess what the hidden part says: read it with ${TOOL_NAMES.read} (a regex finds the lines you need, with line numbers).
- If a tool call is denied or fails, read why and try another way, or explain to the user what stopped you.
${options.scratchpadGuidance}
Today is ${(options.now ?? new Date()).toISOString().slice(0, 10)}.`;
}
