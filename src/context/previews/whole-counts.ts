import { kindMatcher } from './kind-match.js';
import type { LineKinds } from './line-kinds.js';
import type { LineSignal, Severity } from './line-signals.js';
import type { SampleEstimate } from './sample-estimate.js';
import { groupSignals, type StandOut, signalGroupKey, sortStandOuts } from './stand-outs.js';
import type { TextTally } from './text-tally.js';

/** What {@link signalStandOuts} counts from. */
export interface SignalCountInput {
  /** The sampled lines' texts, their signals and their mined kinds. */
  texts: readonly string[];
  signals: ReadonlyArray<LineSignal | undefined>;
  kinds: LineKinds | undefined;
  minSeverity: Severity;
  /** Exact counts over the whole text, when the caller made them. */
  tally: TextTally | undefined;
  /** How the sample stands for the whole text; `undefined` when the sample is the whole text. */
  estimate: SampleEstimate | undefined;
}

/**
 * The sample's lines with a signal, grouped by kind, each group with how many lines of the whole text it holds:
 * the sample's own count when the sample is the whole text; exact over the whole text when the tally kept the
 * shapes of its signal lines (each shape is put in a kind by the rule that groups the sample's,
 * {@link kindMatcher}); otherwise the sample's count scaled to the whole text and marked `estimated`.
 */
export function signalStandOuts(input: SignalCountInput): StandOut[] {
  const { texts, signals, kinds, minSeverity, estimate } = input;
  if (!estimate) return groupSignals(signals, kinds?.kindOf, texts, minSeverity);
  const shapes = input.tally?.shapes;
  if (!shapes) {
    const groups = groupSignals(signals, kinds?.kindOf, texts, minSeverity);
    return sortStandOuts(
      groups.map((group) => ({ ...group, count: estimate.scale(group.count), estimated: true })),
    );
  }
  const strong = (index: number) => (signals[index]?.severity ?? 0) >= minSeverity;
  const eligible = kinds
    ? texts.flatMap((_, index) => (strong(index) ? [kinds.kindOf[index] as number] : []))
    : [];
  const kindOf = kinds ? kindMatcher(kinds.kinds, eligible) : () => -1;
  const sampleKinds = Int32Array.from(texts, (line, index) =>
    strong(index) ? kindOf(line) : (kinds?.kindOf[index] ?? -1),
  );
  const whole = new Map<string, number>();
  // Lines of one shape have the same masked words: one match per shape, not per line.
  for (const [shape, counts] of shapes) {
    let lines = 0;
    for (let severity = minSeverity; severity <= 4; severity++) lines += counts[severity] ?? 0;
    if (lines === 0) continue;
    const key = signalGroupKey(kindOf(shape), shape);
    whole.set(key, (whole.get(key) ?? 0) + lines);
  }
  return sortStandOuts(
    groupSignals(signals, sampleKinds, texts, minSeverity).map((group) => {
      const first = group.indexes[0] as number;
      const count = whole.get(signalGroupKey(sampleKinds[first], texts[first] as string));
      // A sampled line cut at its window's edge may not key as its whole line does: its count is estimated.
      return count === undefined
        ? { ...group, count: estimate.scale(group.count), estimated: true }
        : { ...group, count };
    }),
  );
}
