import type { SampledLine } from './content-sample.js';
import { addSeenIdentifiers, identifierForms, identifiersIn } from './identifiers.js';
import type { PreviewContext } from './preview-builder.js';

/** One name new to the conversation and where it first appears. */
export interface NewName {
  name: string;
  /** Index into the sampled lines of its first occurrence. */
  index: number;
  count: number;
  /** How many names of the same pattern it stands for, itself included (`subdir12` for `subdir10`…`subdir63`). */
  family: number;
}

/** The new names worth listing, in order of first appearance, and what was left out. */
export interface NameIndex {
  names: NewName[];
  /** File names nobody mentioned (a listing's bulk), counted, not listed. */
  unmentionedFiles: number;
  /** Names that look like data rather than names (ids, hashes, encoded pieces), counted, not listed. */
  noise: number;
}

/** File names the index leaves out unless the conversation already named them (listings are mostly these). */
const FILE_NAME =
  /\.(?:py|pyi|pyx|pxd|c|h|cc|cpp|hpp|rs|go|java|kt|js|jsx|ts|tsx|mjs|cjs|rb|php|cs|swift|json|yaml|yml|toml|ini|cfg|xml|html|css|md|rst|txt|csv|sh|lock|ipynb)$/i;

/**
 * The identifiers the sampled lines introduce that the conversation has not seen (the task, earlier actions,
 * thoughts and observations), leaving out names contained in a listed dotted name, file names nobody mentioned,
 * and noise: ids, hashes, block and session numbers, base64 pieces, UUID parts (a name is a word, not a number).
 */
export function newNameIndex(lines: readonly SampledLine[], context: PreviewContext): NameIndex {
  const seen = seenIdentifiers(context);
  const words = pastWords(context);
  const found = new Map<string, NewName>();
  // The first 128 KiB of lines are enough to index (the preview lists a few dozen names); the cost stays bounded.
  let budget = 256 * 1024;
  lines.forEach((line, index) => {
    if (budget <= 0) return;
    const text = line.text.length > 4000 ? line.text.slice(0, 4000) : line.text;
    budget -= text.length + 1;
    for (const name of identifiersIn(text)) {
      if (seen.has(name)) continue;
      const known = found.get(name);
      if (known) known.count++;
      else found.set(name, { name, index, count: 1, family: 1 });
    }
  });
  let unmentionedFiles = 0;
  let noise = 0;
  const candidates: NewName[] = [];
  for (const item of found.values()) {
    if (looksLikeData(item.name)) noise++;
    else if (FILE_NAME.test(item.name) && !words.has(stem(item.name))) unmentionedFiles++;
    else candidates.push(item);
  }
  const covered = new Set<string>();
  for (const item of candidates)
    for (const form of identifierForms(item.name)) if (form !== item.name) covered.add(form);
  const listed = candidates.filter((item) => !covered.has(item.name));
  return { names: collapseFamilies(collapseFamilies(listed, numbered), generated), unmentionedFiles, noise };
}

/** `subdir33` → `subdir#`: names that differ only in their numbers. */
function numbered(name: string): string | undefined {
  const pattern = name.replace(/\d+/g, '#');
  return pattern === name ? undefined : pattern;
}

/** `us1000chvf.geojson` → `#.geojson`: names that differ in a generated id, when a fixed part of 3+ characters stays. */
function generated(name: string): string | undefined {
  const pattern = name.replace(/[A-Za-z0-9]*\d[A-Za-z0-9]*/g, '#');
  return pattern === name || pattern.replace(/#/g, '').length < 3 ? undefined : pattern;
}

/** Keeps the first of each family of three or more names with the same pattern, counting the rest in `family`. */
function collapseFamilies(names: NewName[], patternOf: (name: string) => string | undefined): NewName[] {
  const families = new Map<string, NewName[]>();
  for (const item of names) {
    const pattern = patternOf(item.name);
    if (pattern === undefined) continue;
    const members = families.get(pattern) ?? [];
    members.push(item);
    families.set(pattern, members);
  }
  const dropped = new Set<NewName>();
  for (const members of families.values()) {
    if (members.length < 3) continue;
    const [first, ...rest] = members as [NewName, ...NewName[]];
    for (const member of rest) {
      first.family += member.family;
      first.count += member.count;
      dropped.add(member);
    }
  }
  return names.filter((item) => !dropped.has(item));
}

/**
 * How much a name likely matters next: named in a line that stands out first, then sharing a word with the task
 * or the agent's own steps, then shaped like code (`snake_case`, `dotted.path`, `camelCase`, digits) rather than
 * a plain word, then the most frequent.
 */
export function nameRank(item: NewName, standingOut: ReadonlySet<string>, context: PreviewContext): number {
  const words = pastWords(context);
  const related = item.name
    .split(/[._]|(?<=[a-z])(?=[A-Z])/)
    .some((piece) => piece.length >= 4 && words.has(piece.toLowerCase()));
  const codeLike = /[_.\d]|[a-z][A-Z]/.test(item.name);
  return (
    (standingOut.has(item.name) ? 1e6 : 0) +
    (related ? 1e5 : 0) +
    (codeLike ? 5e4 : 0) +
    Math.min(item.count, 49_999)
  );
}

/**
 * Ids and encodings rather than names: a run of 8+ hex digits with digits in it over half the name
 * (`x14ede63a5a70048`, `blk_38865049064139660`), digits over 40% of it, or base64-like mixed case with short
 * lowercase runs (`MDEyOk9yZ2FuaXphdGlvbjMxODk4MTAw`).
 */
export function looksLikeData(name: string): boolean {
  let digits = 0;
  for (let index = 0; index < name.length; index++) {
    const code = name.charCodeAt(index);
    if (code >= 48 && code <= 57) digits++;
  }
  if (name.length >= 12 && !name.includes('.') && /[a-z]/.test(name) && /[A-Z]/.test(name)) {
    const lowerRuns = name.match(/[a-z]+/g) ?? [];
    const mean = lowerRuns.reduce((sum, run) => sum + run.length, 0) / lowerRuns.length;
    if (mean < 2.5) return true;
  }
  if (digits === 0) return false;
  if (digits >= 0.4 * name.length) return true;
  for (const run of name.matchAll(/[0-9a-fA-F]{8,}/g)) {
    if (/\d/.test(run[0]) && run[0].length * 2 >= name.length) return true;
  }
  return false;
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

const pastWordsCache = new WeakMap<PreviewContext, Set<string>>();

/** Lower-case words of the task and of the agent's own actions and thoughts. */
function pastWords(context: PreviewContext): Set<string> {
  const cached = pastWordsCache.get(context);
  if (cached) return cached;
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
  pastWordsCache.set(context, words);
  return words;
}

function stem(fileName: string): string {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  return base.slice(0, base.lastIndexOf('.')).toLowerCase();
}
