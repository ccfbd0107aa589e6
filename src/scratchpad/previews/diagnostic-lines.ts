/**
 * Lines that report a problem or point at one: exceptions and errors (`ValueError: …`, `error[E0308]: …`,
 * `FAILED …`, `fatal: …`), traceback headers and frames (`File "x.py", line 12`), pytest's `E   ` lines.
 */
export const DIAGNOSTIC_LINE =
  /^\s*(?:[\w.]*(?:Error|Exception|Warning)(?::|\s*$)|Traceback \(most recent call last\)|File "[^"]+", line \d+|FAILED\b|ERROR\b|E {3}|fatal:|panic:|error(?:\[\w+\])?:)/;

/** One numbered line of a result. */
export interface NumberedLine {
  /** 1-based. */
  line: number;
  text: string;
}

/** The last `max` diagnostic lines of `lines` (the final error of a traceback is at its end). */
export function diagnosticLines(lines: readonly string[], max: number): NumberedLine[] {
  const found: NumberedLine[] = [];
  for (let index = lines.length - 1; index >= 0 && found.length < max; index--) {
    const text = lines[index] as string;
    if (DIAGNOSTIC_LINE.test(text)) found.push({ line: index + 1, text });
  }
  return found.reverse();
}
