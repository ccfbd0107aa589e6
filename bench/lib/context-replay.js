import { containedIn, factsOf } from './context-facts.js';

/** The tool of a SWE-agent action: its first word (`str_replace_editor`, `find`, `python`, `submit`). */
export function toolOf(action) {
  return (action ?? '').trim().split(/\s+/)[0] || 'tool';
}

/**
 * Replays one trajectory's steps through `show`, one step at a time. `show` gets the step's observation and a
 * context built only from what came before (the task, the earlier steps as they were shown, and this step's action
 * and thought); the replay never reads ahead, and never sees the final patch.
 * `show` answers `{ text, entry, later? }`: `text` is what the model sees at this step, `later` (default `text`)
 * what the conversation keeps for the following steps.
 * Returns what was shown and kept at each step and the entry each offloaded observation went to.
 */
export async function replay(task, steps, show) {
  const history = [];
  const shown = [];
  const kept = [];
  const entries = [];
  for (const step of steps) {
    const past = Object.freeze({
      task,
      history: Object.freeze([...history, Object.freeze({ action: step.action, thought: step.thought })]),
    });
    const outcome = await show({
      tool: toolOf(step.action),
      observation: step.observation ?? '',
      context: past,
    });
    const later = outcome.later ?? outcome.text;
    shown.push(outcome.text);
    kept.push(later);
    entries.push(outcome.entry ?? null);
    history.push(Object.freeze({ action: step.action, thought: step.thought, observation: later }));
  }
  return { shown, kept, entries };
}

/** Yields the steps one at a time, so the replay can only reach the ones it has been given. */
export function* stepsOf(trajectory) {
  for (const step of trajectory.steps)
    yield { action: step.action ?? '', thought: step.thought ?? '', observation: step.observation ?? '' };
}

/**
 * Scores one replay: cumulative context (the sum over steps of task + every action/thought + observations as shown
 * so far: this step's as shown now, earlier ones as kept) against keeping everything inline, and the facts visible at their step, hidden but found by the store's
 * grep in the entry, or lost.
 */
export async function score(trajectory, run, session) {
  const facts = factsOf(trajectory);
  let held = trajectory.task.length;
  let heldInline = held;
  let cumulative = 0;
  let cumulativeInline = 0;
  let visible = 0;
  let retrievable = 0;
  let lost = 0;
  let total = 0;
  const lostExamples = [];
  for (let index = 0; index < trajectory.steps.length; index++) {
    const step = trajectory.steps[index];
    const own = (step.action ?? '').length + (step.thought ?? '').length;
    heldInline += own + (step.observation ?? '').length;
    cumulative += held + own + run.shown[index].length;
    cumulativeInline += heldInline;
    held += own + run.kept[index].length;
    const stepFacts = facts[index];
    if (stepFacts.length === 0) continue;
    total += stepFacts.length;
    const seen = containedIn(run.shown[index]);
    for (const fact of stepFacts) {
      if (seen.has(fact)) {
        visible++;
        continue;
      }
      const entry = run.entries[index];
      const found = entry !== null && (await storeHas(session, entry.name, fact));
      if (found) retrievable++;
      else {
        lost++;
        if (lostExamples.length < 3) lostExamples.push({ step: index, fact });
      }
    }
  }
  return { cumulative, cumulativeInline, facts: total, visible, retrievable, lost, lostExamples };
}

/** Proves a hidden fact is in the stored entry: the store's grep finds lines with it, and one of them contains it. */
async function storeHas(session, name, fact) {
  const pattern = fact.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const result = await session.grep(name, { pattern, maxMatches: 1000, maxLineChars: 100_000 });
  return result.matches.some((match) => containedIn(match.text).has(fact));
}
