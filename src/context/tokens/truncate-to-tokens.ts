/**
 * The longest prefix of `text` that `count` measures at `maxTokens` tokens or fewer. The cut falls on a grapheme
 * boundary (so an emoji sequence or a letter with its accents stays whole), or on a code-point boundary when even
 * the first grapheme is over budget; it never splits a character.
 *
 * BPE counts of prefixes are not strictly monotonic, so the search keeps the invariant "the kept prefix fits":
 * whatever it returns is within budget, even where it is not the longest possible prefix.
 */
export function truncateToTokens(text: string, maxTokens: number, count: (text: string) => number): string {
  const total = count(text);
  if (total <= maxTokens) return text;
  const cut = longestFittingPrefix(text, maxTokens, total, count);
  if (cut === 0) return '';
  const segments = segmenter.segment(text);
  let boundary = segments.containing(cut)?.index ?? cut;
  while (boundary > 0 && boundary < cut && count(text.slice(0, boundary)) > maxTokens) {
    boundary = segments.containing(boundary - 1)?.index ?? 0;
  }
  return text.slice(0, boundary > 0 ? boundary : cut);
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * The largest code-point boundary whose prefix fits. Tokens grow nearly linearly with length, so probes interpolate
 * (a handful of counts instead of a dozen for a 2,000-token budget); when the same bound moves twice in a row the
 * next probe bisects instead, which keeps the worst case at O(log n) counts.
 */
function longestFittingPrefix(
  text: string,
  maxTokens: number,
  total: number,
  count: (text: string) => number,
): number {
  let low = 0;
  let lowTokens = 0;
  let high = text.length;
  let highTokens = total;
  let streak = 0;
  let lastMoved: 'low' | 'high' | undefined;
  while (high - low > 1) {
    const guess =
      streak < 2 && highTokens > lowTokens
        ? low + Math.round(((high - low) * (maxTokens + 0.5 - lowTokens)) / (highTokens - lowTokens))
        : (low + high) >> 1;
    const middle = codePointBoundaryBetween(text, Math.min(high - 1, Math.max(low + 1, guess)), low, high);
    if (middle === undefined) break;
    const tokens = count(text.slice(0, middle));
    const moved = tokens <= maxTokens ? 'low' : 'high';
    if (moved === 'low') {
      low = middle;
      lowTokens = tokens;
    } else {
      high = middle;
      highTokens = tokens;
    }
    streak = moved === lastMoved ? streak + 1 : 1;
    lastMoved = moved;
  }
  return low;
}

/** `index`, or its neighbour when `index` falls inside a surrogate pair; `undefined` when neither is in (low, high). */
function codePointBoundaryBetween(
  text: string,
  index: number,
  low: number,
  high: number,
): number | undefined {
  if (!splitsSurrogatePair(text, index)) return index;
  if (index - 1 > low) return index - 1;
  if (index + 1 < high) return index + 1;
  return undefined;
}

function splitsSurrogatePair(text: string, index: number): boolean {
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}
