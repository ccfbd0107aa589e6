/** Most words one brace pattern may expand to; beyond it the rest is checked unexpanded. */
const MAX_EXPANSIONS = 64;

/** Shell brace expansion of comma lists, nested included (`/etc/{passwd,hosts}` → two paths). */
export function expandBraces(word: string, limit = MAX_EXPANSIONS): string[] {
  if (!word.includes('{')) return [word];
  const results = new Set<string>();
  const pending = [word];
  while (pending.length > 0) {
    const current = pending.pop()!;
    const group = findBraceGroup(current);
    if (!group || results.size + pending.length >= limit) {
      results.add(current);
      continue;
    }
    for (const option of group.options.reverse()) {
      pending.push(current.slice(0, group.start) + option + current.slice(group.end + 1));
    }
  }
  return [...results];
}

/**
 * The first brace group with a top-level comma to close, in one pass (a stack of open braces), so text full of
 * unmatched `{` costs linear time. Expanding inner groups first yields the same words as bash's outer-first order.
 */
function findBraceGroup(word: string): { start: number; end: number; options: string[] } | undefined {
  const open: { start: number; commas: number[] }[] = [];
  for (let index = 0; index < word.length; index += 1) {
    const character = word[index];
    if (character === '{') open.push({ start: index, commas: [] });
    else if (character === ',' && open.length > 0) open[open.length - 1]!.commas.push(index);
    else if (character === '}' && open.length > 0) {
      const group = open.pop()!;
      if (group.commas.length === 0) continue;
      const cuts = [group.start, ...group.commas, index];
      const options = cuts.slice(0, -1).map((cut, position) => word.slice(cut + 1, cuts[position + 1]));
      return { start: group.start, end: index, options };
    }
  }
  return undefined;
}
