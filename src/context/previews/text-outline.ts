import type { SampledLine } from './content-sample.js';

/** A line that heads a part of the text. */
export interface OutlineEntry {
  /** Index into the sampled lines. */
  index: number;
  /** The heading as shown (trimmed, without markers such as a CI timestamp). */
  text: string;
}

// A leading timestamp (CI logs prefix every line with one) or line number (`cat -n`, editors' views) is not part
// of a heading.
const TIMESTAMP = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?Z?\s+/;
const LINE_NUMBER = /^\s*\d+(?:\t|: | {2,}|\|)/;
const MARKDOWN = 0;
const DEFINITION = 5;
const HEADINGS: readonly RegExp[] = [
  // Markdown headings.
  /^#{1,6}\s+\S/,
  // Banners: `===== test session starts =====`, `----- Ran 3 tests -----`, `*** Summary ***`.
  /^([=*#~-])\1{2,}\s*\S.*?\S\s*\1{3,}\s*$/,
  // CI groups and sections: GitHub Actions `##[group]Run …`, GitLab `section_start:…`.
  /^##\[group\]|^section_start:\d+:/,
  // Patches and histories: `diff --git a/x b/x`, `commit 3f2a…`.
  /^diff --git |^commit [0-9a-f]{7,40}\b/,
  // Definitions in source code: Python, JavaScript/TypeScript, Go, Rust, Ruby, Java/C#/Kotlin/Swift types.
  /^\s*(?:export\s+(?:default\s+)?)?(?:pub(?:\([\w:]+\))?\s+)?(?:async\s+)?(?:def|class|function\*?|func|fn|struct|enum|trait|impl|interface|module|protocol|object)\s+[\w$<]/,
];

/**
 * The lines that head parts of a text: markdown headings, banners, CI groups, the files of a patch, the commits
 * of a log, the definitions of source code (classes, functions). What the text is made of, in order, with where
 * each part starts.
 */
export function textOutline(lines: readonly SampledLine[]): OutlineEntry[] {
  const entries: Array<OutlineEntry & { definition: boolean }> = [];
  lines.forEach((line, index) => {
    if (line.text.length > 400) return;
    const text = line.text.replace(TIMESTAMP, '').replace(LINE_NUMBER, '').trimEnd();
    const heading = HEADINGS.findIndex((pattern) => pattern.test(text));
    if (heading === -1) return;
    // A markdown heading starts a block (first line or after a blank one); `# …` inside a block is a comment.
    if (heading === MARKDOWN && index > 0 && (lines[index - 1] as SampledLine).text.trim().length > 0) return;
    entries.push({ index, text: text.trim(), definition: heading === DEFINITION });
  });
  // In source code, `# …` lines are comments, not headings.
  const code = entries.some((entry) => entry.definition);
  return entries
    .filter((entry) => !code || entry.definition || !entry.text.startsWith('#'))
    .map(({ index, text }) => ({ index, text }));
}
