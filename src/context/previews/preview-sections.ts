/** One candidate line of a section. */
export interface SectionLine {
  text: string;
  /** Lower ranks are taken first when space is short (default 0); lines are shown in their given order. */
  rank?: number;
}

/** A titled part of a preview and how much of it to keep. */
export interface PreviewSection {
  /** Shown once above the lines taken ('' for none). */
  title: string;
  lines: readonly SectionLine[];
  /** Lines this section gets before any section grows past its own minimum. */
  min: number;
  /** Most lines it may show (default all). */
  max?: number;
}

/**
 * Fits sections into `maxChars`: in priority order (the array's order) each section takes up to `min` of its
 * lines, best rank first; then every section takes one more line per round, in priority order, until nothing more
 * fits. A line too long for the space left is passed over for the next one. Sections are rendered in `display`
 * order (indexes into `sections`; default the priority order), each with its title and its lines in their order.
 * An empty section is left out. The result is at most `maxChars` long.
 */
export function fitSections(
  sections: readonly PreviewSection[],
  maxChars: number,
  display: readonly number[] = sections.map((_, index) => index),
): string {
  const queues = sections.map((section) =>
    section.lines
      .map((line, index) => ({ index, rank: line.rank ?? 0 }))
      .sort((a, b) => a.rank - b.rank || a.index - b.index)
      .map((entry) => entry.index),
  );
  const taken = sections.map(() => new Set<number>());
  let used = -1; // The first line has no newline before it.
  const take = (section: number): boolean => {
    const { title, lines, max } = sections[section] as PreviewSection;
    const chosen = taken[section] as Set<number>;
    if (chosen.size >= (max ?? lines.length)) return false;
    const queue = queues[section] as number[];
    for (let position = 0; position < queue.length; position++) {
      const index = queue[position] as number;
      const cost =
        (lines[index] as SectionLine).text.length + 1 + (chosen.size === 0 && title ? title.length + 1 : 0);
      if (used + cost > maxChars) continue;
      queue.splice(position, 1);
      chosen.add(index);
      used += cost;
      return true;
    }
    return false;
  };
  sections.forEach((section, index) => {
    while ((taken[index] as Set<number>).size < section.min && take(index)) {}
  });
  for (let grew = true; grew; ) {
    grew = false;
    for (let index = 0; index < sections.length; index++) if (take(index)) grew = true;
  }
  const out: string[] = [];
  for (const index of display) {
    const section = sections[index] as PreviewSection;
    const chosen = taken[index] as Set<number>;
    if (chosen.size === 0) continue;
    if (section.title) out.push(section.title);
    section.lines.forEach((line, position) => {
      if (chosen.has(position)) out.push(line.text);
    });
  }
  return out.join('\n');
}
