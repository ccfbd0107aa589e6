/** Start offsets of every non-overlapping occurrence of `needle` in `text`. */
export function occurrences(text: string, needle: string): number[] {
  const positions: number[] = [];
  let at = text.indexOf(needle);
  while (at !== -1) {
    positions.push(at);
    at = text.indexOf(needle, at + needle.length);
  }
  return positions;
}

/** 1-based line of each (ascending) position. */
export function linesOf(text: string, positions: number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let at = text.indexOf('\n');
  for (const position of positions) {
    while (at !== -1 && at < position) {
      line++;
      at = text.indexOf('\n', at + 1);
    }
    lines.push(line);
  }
  return lines;
}
