import type { SampledLine } from './content-sample.js';

/** Where a table's header is: its line and, when there is one, the rule under it. */
export interface TableHeader {
  /** Indexes into the sampled lines. */
  header: number;
  rule?: number;
}

// A rule under (or around) a header: dashes or equals signs with column breaks (`----+----`, `+===+`, `--- ---`).
const RULE = /^[\s|+:=-]{10,}$/;

/**
 * The header of a table printed by columns, in the first 40 lines: the line above a rule (`psql`, `dpkg -l`, MySQL
 * between two rules), or a first line of three or more capitalised column names (`ps`, `docker ps`, `kubectl get`).
 */
export function tableHeader(lines: readonly SampledLine[]): TableHeader | undefined {
  const head = lines.slice(0, 40);
  for (let index = 1; index < head.length; index++) {
    const text = (head[index] as SampledLine).text;
    if (!RULE.test(text) || dashes(text) < 0.6 * text.trim().length) continue;
    // MySQL draws a rule above the header too: the header is the line between two rules.
    let header = index - 1;
    if (RULE.test((head[header] as SampledLine).text) && index + 1 < head.length) header = index + 1;
    const headerText = (head[header] as SampledLine | undefined)?.text ?? '';
    if (/[A-Za-z]/.test(headerText))
      return header < index ? { header, rule: index } : { header, rule: index };
  }
  const first = lines[0]?.text.trim() ?? '';
  const names = first.split(/\s{2,}|\t/).filter(Boolean);
  if (names.length >= 3 && names.every((name) => /^[A-Z][A-Z0-9 _%/().-]*$/.test(name))) return { header: 0 };
  return undefined;
}

function dashes(text: string): number {
  let count = 0;
  for (const char of text) if (char === '-' || char === '=') count++;
  return count;
}
