import type { LineSignal, Severity } from './line-signals.js';

/** Lines that stand out for the same reason, grouped (one kind of error line, one rare value). */
export interface StandOut {
  /** Indexes (into the sampled lines) of the group's first lines, at most five. */
  indexes: number[];
  /** Lines in the group. */
  count: number;
  /** 1–4 from {@link Severity}; 0 for a rare line that reports nothing wrong. */
  severity: Severity | 0;
  /** What a grep for the group can use (`ERROR`, `not ok`, `"Sex": "."`). */
  signal: string;
  /** True when `count` is an estimate for the whole text from a sample of it (shown `[×≈N]`). */
  estimated?: boolean;
}

/** The key lines of one group share: their kind, or for a line of no kind its text with digits masked. */
export function signalGroupKey(kind: number | undefined, text: string): string {
  return kind !== undefined && kind >= 0 ? `k${kind}` : `t${maskDigits(text)}`;
}

/**
 * Groups the lines that carry a signal by their kind (`kindOf`, from the line kinds; lines of no kind are grouped
 * by their text with digits masked), keeping each group's strongest signal, and orders the groups: most severe
 * first, then the rarest, then the earliest.
 */
export function groupSignals(
  signals: ReadonlyArray<LineSignal | undefined>,
  kindOf: ArrayLike<number> | undefined,
  texts: readonly string[],
  minSeverity: Severity,
): StandOut[] {
  const groups = new Map<string, StandOut>();
  signals.forEach((signal, index) => {
    if (!signal || signal.severity < minSeverity) return;
    const key = signalGroupKey(kindOf?.[index], texts[index] ?? '');
    const group = groups.get(key);
    if (!group) {
      groups.set(key, { indexes: [index], count: 1, severity: signal.severity, signal: signal.signal });
      return;
    }
    group.count++;
    if (group.indexes.length < 5) group.indexes.push(index);
    if (signal.severity > group.severity) {
      group.severity = signal.severity;
      group.signal = signal.signal;
    }
  });
  return sortStandOuts([...groups.values()]);
}

/** Most severe first, then the rarest, then the earliest. */
export function sortStandOuts(groups: StandOut[]): StandOut[] {
  return groups.sort(
    (a, b) => b.severity - a.severity || a.count - b.count || (a.indexes[0] ?? 0) - (b.indexes[0] ?? 0),
  );
}

/** The line's start with digit runs as `0` (its first 300 characters once masked, of its first 2,000). */
function maskDigits(text: string): string {
  const masked = signalShape(text);
  return masked.length > 300 ? masked.slice(0, 300) : masked;
}

/**
 * What a signal line is grouped by, with nothing of its own numbers: its first 2,000 characters with each run of
 * digits as `0`. Lines of one shape have the same words once varying ones are masked, so they share a kind and a
 * group; a whole text's signal lines are counted by shape ({@link tallyText}).
 */
export function signalShape(line: string): string {
  return (line.length > 2000 ? line.slice(0, 2000) : line).replace(/\d+/g, '0');
}
