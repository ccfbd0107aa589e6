import { codePointLength } from '../../core/utf8.js';
import { codePointPrefix } from './code-points.js';
import { diagnosticLines } from './diagnostic-lines.js';
import { addSeenIdentifiers, identifierForms, identifiersIn } from './identifiers.js';
import type { PreviewContext, PreviewInput, PreviewText } from './preview-builder.js';

/** Options for {@link salientPreview}. */
export interface SalientPreviewOptions {
  /** New names per index line (default 8); each index line starts with the line where its first name appears. */
  namesPerLine?: number;
  /** Diagnostic lines shown, the last ones of the result (default 3). */
  diagnostics?: number;
  /** Characters a diagnostic line is clipped to (default 200). */
  maxLineChars?: number;
  /** Upper bound on the index in characters (default 6,000); past it the names most likely to matter are kept. */
  maxIndexChars?: number;
}

/** File names the index leaves out unless the conversation already named them (listings are mostly these). */
const FILE_NAME =
  /\.(?:py|pyi|pyx|pxd|c|h|cc|cpp|hpp|rs|go|java|kt|js|jsx|ts|tsx|mjs|cjs|rb|php|cs|swift|json|yaml|yml|toml|ini|cfg|xml|html|css|md|rst|txt|csv|sh|lock|ipynb)$/i;

interface NewName {
  name: string;
  /** 1-based line of its first occurrence. */
  line: number;
  count: number;
}

/**
 * The preview this project designed for the `default` observation: what the model needs to continue without the
 * content, chosen from what the conversation already holds (the task and the earlier steps; never later ones).
 *
 * - The last diagnostic lines (errors, traceback frames, failures) verbatim, with their line numbers.
 * - An index of the names the result introduces: identifiers the conversation has not seen yet, each group
 *   prefixed with the line where it starts, so the model knows what is there and where to read. Names already
 *   seen, names contained in a listed dotted name, and file names nobody mentioned (a listing's bulk) are left
 *   out and counted.
 *
 * The model reads the rest with the store's line and regex reads; the offload observation gives the exact calls.
 */
export function salientPreview(input: PreviewInput, options: SalientPreviewOptions = {}): PreviewText {
  const namesPerLine = options.namesPerLine ?? 8;
  const maxLineChars = options.maxLineChars ?? 200;
  const maxIndexChars = options.maxIndexChars ?? 12000;
  const lines = input.text.split('\n');
  const seen = seenIdentifiers(input.context);
  const words = pastWords(input.context);

  const found = new Map<string, NewName>();
  lines.forEach((text, index) => {
    for (const name of identifiersIn(text)) {
      if (seen.has(name)) continue;
      const known = found.get(name);
      if (known) known.count++;
      else found.set(name, { name, line: index + 1, count: 1 });
    }
  });
  let unmentionedFiles = 0;
  const candidates: NewName[] = [];
  for (const item of found.values()) {
    if (FILE_NAME.test(item.name) && !words.has(stem(item.name))) unmentionedFiles++;
    else candidates.push(item);
  }
  const covered = new Set<string>();
  for (const item of candidates)
    for (const form of identifierForms(item.name)) if (form !== item.name) covered.add(form);
  const listed = candidates.filter((item) => !covered.has(item.name));

  const diagnostics = diagnosticLines(lines, options.diagnostics ?? 3);
  const inDiagnostics = new Set(diagnostics.flatMap((line) => identifiersIn(line.text)));
  const { kept, dropped } = fitIndex(listed, maxIndexChars, (item) => rank(item, inDiagnostics, words));

  const sections: string[] = [];
  if (diagnostics.length > 0) {
    sections.push('Errors:');
    for (const { line, text } of diagnostics) sections.push(`  L${line}: ${clip(text.trim(), maxLineChars)}`);
  }
  if (kept.length > 0) {
    sections.push('New names (first line):');
    for (let start = 0; start < kept.length; start += namesPerLine) {
      const group = kept.slice(start, start + namesPerLine);
      // The range of lines where the group's names first appear, so a line read around it finds them.
      const first = Math.min(...group.map((item) => item.line));
      const last = Math.max(...group.map((item) => item.line));
      sections.push(
        `  L${first === last ? first : `${first}-${last}`}: ${group.map((item) => item.name).join(' ')}`,
      );
    }
  } else {
    sections.push('No new names.');
  }
  const unlisted = [
    unmentionedFiles > 0 ? `${unmentionedFiles} file name${unmentionedFiles === 1 ? '' : 's'}` : '',
    dropped > 0 ? `${dropped} more new name${dropped === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  if (unlisted.length > 0) sections.push(`Not listed: ${unlisted.join(' and ')}.`);

  const focus = diagnostics[diagnostics.length - 1]?.line ?? kept[0]?.line;
  // Search for the most specific name the errors mention (rarest, then longest): what the model most likely
  // needs next; otherwise the first new name.
  const fromErrors = kept
    .filter((item) => inDiagnostics.has(item.name))
    .sort((a, b) => a.count - b.count || b.name.length - a.name.length);
  const example = (fromErrors[0] ?? kept[0])?.name;
  return {
    text: sections.join('\n'),
    ...(focus === undefined ? {} : { focusLine: focus }),
    ...(example === undefined ? {} : { searchExample: example.replace(/[.]/g, '\\.') }),
  };
}

/** Identifiers the model has already seen: in the task and in every earlier action, thought and observation. */
function seenIdentifiers(context: PreviewContext): Set<string> {
  const seen = new Set<string>();
  if (context.task) addSeenIdentifiers(context.task, seen);
  for (const step of context.history ?? []) {
    if (step.action) addSeenIdentifiers(step.action, seen);
    if (step.thought) addSeenIdentifiers(step.thought, seen);
    if (step.observation) addSeenIdentifiers(step.observation, seen);
  }
  return seen;
}

/** Lower-case words of the task and of the agent's own actions and thoughts. */
function pastWords(context: PreviewContext): Set<string> {
  const words = new Set<string>();
  const add = (text: string | undefined) => {
    if (!text) return;
    for (const match of text.toLowerCase().matchAll(/[a-z0-9_]+/g)) words.add(match[0]);
  };
  add(context.task);
  for (const step of context.history ?? []) {
    add(step.action);
    add(step.thought);
  }
  return words;
}

function stem(fileName: string): string {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  return base.slice(0, base.lastIndexOf('.')).toLowerCase();
}

/** Names in an error line first, then names sharing a word with the task or the agent's steps, then the frequent. */
function rank(item: NewName, inDiagnostics: Set<string>, words: Set<string>): number {
  const related = item.name
    .split(/[._]|(?<=[a-z])(?=[A-Z])/)
    .some((piece) => piece.length >= 4 && words.has(piece.toLowerCase()));
  return (inDiagnostics.has(item.name) ? 1e6 : 0) + (related ? 1e5 : 0) + Math.min(item.count, 99_999);
}

/** Keeps the whole index when it fits `maxChars`; otherwise the best-ranked names, still in line order. */
function fitIndex(
  listed: NewName[],
  maxChars: number,
  score: (item: NewName) => number,
): { kept: NewName[]; dropped: number } {
  const cost = (item: NewName) => item.name.length + 1;
  const total = listed.reduce((sum, item) => sum + cost(item), 0);
  if (total <= maxChars) return { kept: listed, dropped: 0 };
  const chosen = new Set<NewName>();
  let used = 0;
  for (const item of [...listed].sort((a, b) => score(b) - score(a) || a.line - b.line)) {
    if (used + cost(item) > maxChars) continue;
    chosen.add(item);
    used += cost(item);
  }
  return { kept: listed.filter((item) => chosen.has(item)), dropped: listed.length - chosen.size };
}

function clip(text: string, max: number): string {
  return codePointLength(text) > max ? `${codePointPrefix(text, max)}…` : text;
}
