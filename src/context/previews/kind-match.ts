import { type LineKind, maskedWords, VARIABLE } from './line-kinds.js';

/**
 * The kind a line belongs to among `eligible` kinds: the first (in the kinds' order) whose template it matches,
 * word for word where the template is fixed; -1 when none does. Mining joins a line to a kind and then widens the
 * kind's template, so every line mined into a kind matches its final template: a line of the whole text and a
 * line of the sample are put in the same kind by this one rule, and counts over the whole text agree with the
 * groups shown from the sample.
 */
export function kindMatcher(
  kinds: readonly LineKind[],
  eligible: Iterable<number>,
): (line: string) => number {
  const byLength = new Map<number, number[]>();
  for (const kind of [...new Set(eligible)].sort((a, b) => a - b)) {
    const length = (kinds[kind] as LineKind).template.length;
    const list = byLength.get(length) ?? [];
    list.push(kind);
    byLength.set(length, list);
  }
  return (line) => {
    if (byLength.size === 0) return -1;
    const words = maskedWords(line);
    for (const kind of byLength.get(words.length) ?? []) {
      if (matches((kinds[kind] as LineKind).template, words)) return kind;
    }
    return -1;
  };
}

function matches(template: readonly string[], words: readonly string[]): boolean {
  for (let index = 0; index < template.length; index++) {
    const word = template[index];
    if (word !== VARIABLE && word !== words[index]) return false;
  }
  return true;
}
