import { escapeRegex } from '../../core/escape-regex.js';
import { formatCount } from '../../core/format.js';
import { type ContentForm, contentForm } from './content-form.js';
import { type ContentSample, type SampledLine, type SampleOptions, sampleContent } from './content-sample.js';
import { identifiersIn } from './identifiers.js';
import { type LineKinds, mineLineKinds } from './line-kinds.js';
import { type LineSignal, lineSignal, type Severity } from './line-signals.js';
import { type NewName, nameRank, newNameIndex } from './name-index.js';
import type { PreviewInput, PreviewRead, PreviewText } from './preview-builder.js';
import { fitSections, type PreviewSection, type SectionLine } from './preview-sections.js';
import { approx, type SampleEstimate, sampleEstimate } from './sample-estimate.js';
import { type StandOut, sortStandOuts } from './stand-outs.js';
import { taskLines } from './task-lines.js';
import { textOutline } from './text-outline.js';
import type { TextTally } from './text-tally.js';
import { signalStandOuts } from './whole-counts.js';

/** Options for {@link salientPreview}. */
export interface SalientPreviewOptions {
  /** Characters the preview may use (default {@link salientBudget} of the result's length). */
  maxChars?: number;
  /** Characters a shown line is clipped to (default 320, less in a preview under 960 characters). */
  maxLineChars?: number;
  /** How much of a long result is read (default: all of it up to 1 MiB, else a head, middle windows, a tail). */
  sample?: SampleOptions;
}

const NAMES_PER_LINE = 8;
const SEVERITY_NAMES = ['', 'notice', 'warning', 'error', 'fatal'] as const;

/**
 * The default preview's size for a result of `chars` characters: 12% of it, at least 120 and at most 5,000
 * characters (small results keep small previews, so offloading still saves most of the context).
 */
export function salientBudget(chars: number): number {
  return Math.min(5000, Math.max(120, Math.round(chars * 0.12)));
}

/**
 * The preview this project designed for the `default` observation, in the order a reader needs it:
 *
 * 1. What the output is: its form and shape (JSON key paths with types, counts and an example item; a CSV's
 *    header and columns; an XML/HTML outline; a table's header; for a log, how many kinds of line), then its first
 *    and last lines, whole up to `maxLineChars`, with their line numbers.
 * 2. What stands out: error, warning and failure lines wherever the level or status sits in the line, tracebacks
 *    and exceptions, failing tests, non-zero exit codes and failure counts, 4xx/5xx statuses (grouped by kind of
 *    line, with how many), rare values of a category, rare kinds of line in a repetitive log, and the lines that
 *    mention the task's rarer words.
 * 3. The names the output introduces that the conversation has not seen (ids, hashes and encoded pieces left out).
 * 4. Exact read calls (`reads`): a regex for what stands out, the lines around it, the lines after those shown.
 *
 * Each part gets a minimum and then grows with the others while `maxChars` allows, so the preview is sized by
 * what the content holds. Only the task and earlier steps are used, never later ones. Long results are read as
 * a bounded sample (see {@link sampleContent}), so the cost does not grow with the result.
 */
export function salientPreview(input: PreviewInput, options: SalientPreviewOptions = {}): PreviewText {
  const maxChars = options.maxChars ?? salientBudget(input.sample?.totalChars ?? input.text.length);
  // A small preview clips lines shorter, so that a long first line still shows its start.
  const maxLineChars = options.maxLineChars ?? Math.min(320, Math.max(60, Math.floor(maxChars / 3)));
  const sample = input.sample ?? sampleContent(input.text, options.sample);
  const lines = sample.lines;
  const texts = lines.map((line) => line.text);
  // Counts read from a sample are estimates for the whole text, marked as such, unless the tally has them exactly.
  const estimate = sampleEstimate(sample, input.bytes.byteLength);
  const tally = estimate && input.tally?.chars === input.text.length ? input.tally : undefined;
  const form = contentForm(input.text, sample, input.json, {
    exampleChars: Math.min(800, Math.max(120, Math.round(maxChars / 6))),
    headerChars: 2000,
    ...(estimate ? { estimate } : {}),
  });
  const textual = form.kind === 'text' || form.kind === 'table';
  const kinds = form.kind === 'json' ? undefined : mineLineKinds(texts);
  const signals = lines.map((line) => lineSignal(line.text));
  const minSeverity: Severity = textual ? 1 : 2;
  const totalLines = tally?.lines ?? (estimate ? estimate.scale(lines.length) : lines.length);
  // Problem words on a large share of the lines are what the text is about, not what stands out in it.
  const standOuts = sortStandOuts([
    ...form.standOuts,
    ...signalStandOuts({ texts, signals, kinds, minSeverity, tally, estimate }).filter(
      (group) => group.severity > 1 || group.count <= Math.max(3, totalLines * 0.02),
    ),
  ]);
  const format = (index: number, extra = '') =>
    `  ${label(lines[index] as SampledLine)}${extra}: ${clip(texts[index] as string, maxLineChars)}`;

  const shown = new Set<number>(form.shownIndexes);
  const first = firstLines(lines, form.shownIndexes);
  const last = lastLines(lines, first);
  // Lines the first and last lines surely show are not repeated by the other parts.
  const surelyShown = new Set([...shown, ...first.slice(0, 3), ...last.slice(-2)]);
  const standOutLines = standOutSection(standOuts, lines, format, surelyShown);
  const rare = (kinds && textual ? rareLines(kinds, signals, minSeverity, lines.length) : []).filter(
    (index) => !surelyShown.has(index),
  );
  const task = taskLines(lines, input.context.task).filter((index) => !surelyShown.has(index));
  const outline = textual ? textOutline(lines) : [];

  const numbered = (indexes: readonly number[], rank: (order: number) => number): SectionLine[] =>
    indexes.map((index, order) => ({ text: format(index), rank: rank(order) }));
  const outlineLines =
    outline.length <= Math.max(40, lines.length / 6)
      ? outline.map((entry, order) => ({
          text: `  ${label(lines[entry.index] as SampledLine)}: ${clip(entry.text, 160)}`,
          rank: order,
        }))
      : [];
  const describing = [
    { text: describe(form, sample, kinds, signals, minSeverity, estimate, tally) },
    ...form.shape,
  ];
  const shape = section('', describing, 1 + minShape(form));
  const estimatedNote =
    estimate && standOuts.some((group) => group.estimated) ? `; ≈ ${estimate.note.slice(1, -1)}` : '';
  const standing = section(`Stands out ([×N]: N lines of that kind${estimatedNote}):`, standOutLines, 3);
  const head = section(
    'First lines:',
    numbered(first, (order) => order),
    1,
    12,
  );
  const tail = section(
    'Last lines:',
    numbered(last, (order) => last.length - order),
    2,
    8,
  );
  const rarest = section(
    'Rare lines:',
    numbered(rare, (order) => order),
    2,
  );
  const asked = section(
    'Lines about the task:',
    numbered(task, (order) => order),
    2,
    8,
  );
  const outlined = section('Outline:', outlineLines, 2);
  // The index leaves out names the other parts already show: fit once without it, then with it.
  const layout = (sections: PreviewSection[], order: PreviewSection[]) =>
    fitSections(
      sections,
      maxChars,
      order.map((section) => sections.indexOf(section)).filter((at) => at >= 0),
    );
  const without = layout(
    [shape, standing, head, outlined, tail, rarest, asked],
    [shape, head, tail, outlined, standing, rarest, asked],
  );
  const visible = new Set(identifiersIn(without));
  const inStandOuts = new Set(
    standOuts
      .slice(0, 5)
      .flatMap((group) => group.indexes.flatMap((index) => identifiersIn(texts[index] as string))),
  );
  const names = newNameIndex(lines, input.context).names.filter((item) => !visible.has(item.name));
  const ranked = [...names].sort(
    (a, b) =>
      nameRank(b, inStandOuts, input.context) - nameRank(a, inStandOuts, input.context) || a.index - b.index,
  );
  const families = estimate && ranked.some((item) => item.family > 1);
  const indexed = section(
    families ? `New names (×≈N: about N like it, ${estimate.note.slice(1, -1)}):` : 'New names:',
    nameLines(ranked, lines, estimate !== undefined),
    3,
  );
  const text = layout(
    [shape, standing, indexed, head, outlined, tail, rarest, asked],
    [shape, head, tail, outlined, standing, rarest, asked, indexed],
  );

  const reads = suggestedReads(text, standOuts, lines, first, ranked);
  const focus = reads.find((read): read is { lines: string } => 'lines' in read);
  const search = reads.find((read): read is { regex: string } => 'regex' in read);
  return {
    text,
    reads,
    ...(focus ? { focusLine: Number(focus.lines.split(':')[0]) } : {}),
    ...(search ? { searchExample: search.regex } : {}),
  };
}

function section(title: string, lines: SectionLine[], min: number, max?: number): PreviewSection {
  return { title, lines, min, ...(max === undefined ? {} : { max }) };
}

/** The first line of the preview: the content's form, its size in lines, its kinds of line and its signals. */
function describe(
  form: ContentForm,
  sample: ContentSample,
  kinds: LineKinds | undefined,
  signals: ReadonlyArray<LineSignal | undefined>,
  minSeverity: Severity,
  estimate: SampleEstimate | undefined,
  tally: TextTally | undefined,
): string {
  const parts: string[] = [];
  if (form.label) parts.push(form.label.replace(/:$/, ''));
  else {
    const nonBlank = sample.lines.filter((line) => line.text.trim().length > 0).length;
    const repetitive = kinds && nonBlank >= 30 && kinds.kinds.length <= 0.3 * nonBlank;
    const count = tally?.lines ?? (estimate ? estimate.scale(sample.lines.length) : sample.lines.length);
    const size =
      estimate && !tally
        ? `${approx(count)} lines ${estimate.note}`
        : `${formatCount(count)} line${count === 1 ? '' : 's'}`;
    const kindCount = kinds?.kinds.length ?? 0;
    const kindsSaid = !repetitive
      ? ''
      : estimate
        ? ` of ${approx(kindCount)} kinds ${estimate.note}, repetitive like a log`
        : ` of ${formatCount(kindCount)} kinds (repetitive, like a log)`;
    parts.push(`Text, ${size}${kindsSaid}`);
  }
  const counts = [0, 0, 0, 0, 0];
  // Exact over the whole text when the tally has them; else the sample's, then an estimate unless it is the whole.
  const levels = tally?.severities;
  if (levels) for (let severity = 1; severity <= 4; severity++) counts[severity] = levels[severity] ?? 0;
  else {
    for (const signal of signals) {
      if (signal) counts[signal.severity] = (counts[signal.severity] ?? 0) + 1;
    }
  }
  const said = [4, 3, 2, 1]
    .filter((severity) => severity >= minSeverity && (counts[severity] ?? 0) > 0)
    .map((severity) => {
      const count = counts[severity] as number;
      if (estimate && !levels) return `${approx(estimate.scale(count))} ${SEVERITY_NAMES[severity]} lines`;
      return `${formatCount(count)} ${SEVERITY_NAMES[severity]} line${count === 1 ? '' : 's'}`;
    });
  if (said.length > 0) parts.push(`${said.join(', ')}${estimate && !levels ? ` ${estimate.note}` : ''}`);
  if (estimate) {
    parts.push(
      `read from a ${estimate.sampled} sample of ${estimate.whole} (start, middle windows, end; line numbers below 0 count from the end, ~ marks a middle window)`,
    );
  }
  return `${parts.join('; ')}:`;
}

/** The shape's lines a preview always shows: two levels deep (top-level keys and their children), at most 40. */
function minShape(form: ContentForm): number {
  return Math.min(40, form.shape.filter((line) => (line.rank ?? 0) <= 2).length);
}

/** Up to 12 first lines with content, skipping the ones the shape shows. */
function firstLines(lines: readonly SampledLine[], skip: readonly number[]): number[] {
  const found: number[] = [];
  for (let index = 0; index < lines.length && found.length < 12; index++) {
    const line = lines[index] as SampledLine;
    if (line.part !== 'head' && !(line.part === 'tail' && found.length === 0)) break;
    if (hasContent(line.text) && !skip.includes(index)) found.push(index);
  }
  return found;
}

/** Up to 8 last lines with content that are not among the first. */
function lastLines(lines: readonly SampledLine[], first: readonly number[]): number[] {
  const found: number[] = [];
  const after = Math.max(-1, ...first);
  for (let index = lines.length - 1; index > after && found.length < 8; index--) {
    if (hasContent((lines[index] as SampledLine).text)) found.unshift(index);
  }
  return found;
}

/** Not blank, and not only a line number (an empty line of a `cat -n` view). */
function hasContent(text: string): boolean {
  return text.trim().length > 0 && !/^\s{2,}\d+\s*$|^\s*\d+(?:\t|: |\|)\s*$/.test(text);
}

/**
 * One entry per group (at most 40), best first: the group's first line not shown elsewhere, with its count and,
 * when it is indented, the line it belongs to. A line already shown by an earlier entry (as a line or a parent) is
 * not shown again; a group with nothing new to show is left out.
 */
function standOutSection(
  groups: readonly StandOut[],
  lines: readonly SampledLine[],
  format: (index: number, extra?: string) => string,
  elsewhere: ReadonlySet<number>,
): SectionLine[] {
  const used = new Set<number>();
  const entries: SectionLine[] = [];
  for (const group of groups) {
    if (entries.length === 40) break;
    const fresh = group.indexes.filter((candidate) => !used.has(candidate));
    const index = fresh.find((candidate) => !elsewhere.has(candidate)) ?? fresh[0];
    if (index === undefined) continue;
    used.add(index);
    const own = format(
      index,
      group.estimated
        ? ` [×${approx(group.count)}]`
        : group.count > 1
          ? ` [×${formatCount(group.count)}]`
          : '',
    );
    const parent = parentOf(lines, index);
    const showParent = parent !== undefined && !used.has(parent);
    if (showParent) used.add(parent);
    entries.push({ text: showParent ? `${format(parent)}\n${own}` : own, rank: entries.length });
  }
  return entries;
}

/**
 * The nearest line above (within 12) that is indented less and says something (not a lone bracket): the test,
 * element or traceback a line belongs to.
 */
function parentOf(lines: readonly SampledLine[], index: number): number | undefined {
  const indent = indentOf((lines[index] as SampledLine).text);
  if (indent === 0) return undefined;
  for (let above = index - 1; above >= Math.max(0, index - 12); above--) {
    const text = (lines[above] as SampledLine).text;
    if (text.trim().length === 0 || indentOf(text) >= indent) continue;
    return /[\p{L}\p{N}]/u.test(text) ? above : undefined;
  }
  return undefined;
}

function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}

/**
 * In a repetitive text (at least 30 lines, kinds at most 30% of them), the first line of each kind seen at most
 * twice (or 0.2% of the lines) that does not already stand out: what happened once in a log of routine.
 */
function rareLines(
  { kinds }: LineKinds,
  signals: ReadonlyArray<LineSignal | undefined>,
  minSeverity: Severity,
  total: number,
): number[] {
  const nonBlank = kinds.reduce((sum, kind) => sum + kind.count, 0);
  if (nonBlank < 30 || kinds.length > 0.3 * nonBlank) return [];
  const limit = Math.max(2, Math.floor(total * 0.002));
  return kinds
    .filter((kind) => kind.count <= limit)
    .filter((kind) => !kind.examples.some((index) => (signals[index]?.severity ?? 0) >= minSeverity))
    .sort((a, b) => a.count - b.count || (a.examples[0] as number) - (b.examples[0] as number))
    .slice(0, 40)
    .map((kind) => kind.examples[0] as number)
    .sort((a, b) => a - b);
}

/**
 * Index lines: the best-ranked names first, eight to a line, each labelled with the lines its names start on; a
 * name standing for a family of similar names says how many (`subdir10 ×54`).
 */
function nameLines(
  ranked: readonly NewName[],
  lines: readonly SampledLine[],
  sampled: boolean,
): SectionLine[] {
  const out: Array<{ line: SectionLine; at: number }> = [];
  for (let start = 0; start < ranked.length && out.length < 60; start += NAMES_PER_LINE) {
    const group = ranked.slice(start, start + NAMES_PER_LINE).sort((a, b) => a.index - b.index);
    const firstLabel = label(lines[(group[0] as NewName).index] as SampledLine);
    const lastLabel = label(lines[(group[group.length - 1] as NewName).index] as SampledLine);
    const numberedRange = /^\d+$/.test(firstLabel) && /^\d+$/.test(lastLabel) && firstLabel !== lastLabel;
    const where = numberedRange ? `${firstLabel}-${lastLabel}` : firstLabel;
    const names = group.map((item) =>
      item.family > 1
        ? `${item.name} ×${sampled ? approx(item.family) : formatCount(item.family)}`
        : item.name,
    );
    out.push({
      line: { text: `  ${where}: ${names.join(' ')}`, rank: out.length },
      at: (group[0] as NewName).index,
    });
  }
  // Shown in the order of the lines they point to.
  return out.sort((a, b) => a.at - b.at).map(({ line }) => line);
}

/**
 * Up to three exact reads: a regex for the signals of what stands out (or for the most telling new name), the
 * lines around the first stand-out with a line number, and the lines after the first lines shown.
 */
function suggestedReads(
  text: string,
  standOuts: readonly StandOut[],
  lines: readonly SampledLine[],
  first: readonly number[],
  ranked: readonly NewName[],
): PreviewRead[] {
  const reads: PreviewRead[] = [];
  const shownGroups = standOuts.filter((group) =>
    group.indexes.some((index) => text.includes(`: ${(lines[index] as SampledLine).text.slice(0, 40)}`)),
  );
  const signals = [
    ...new Set(
      shownGroups.map((group) => group.signal).filter((signal) => signal.length > 0 && signal.length <= 60),
    ),
  ].slice(0, 4);
  if (signals.length > 0) reads.push({ regex: signals.map(escapeRegex).join('|') });
  else if (ranked[0]) reads.push({ regex: escapeRegex(ranked[0].name) });
  const numbered = shownGroups
    .flatMap((group) => group.indexes)
    .map((index) => lines[index]?.number)
    .find((number) => number !== undefined && number > 0);
  if (numbered !== undefined) reads.push({ lines: `${Math.max(1, numbered - 5)}:${numbered + 24}` });
  const lastFirst = first.length > 0 ? lines[first[first.length - 1] as number]?.number : undefined;
  if (lastFirst !== undefined && lastFirst > 0 && lines.length > first.length) {
    reads.push({ lines: `${lastFirst + 1}:${lastFirst + 50}` });
  }
  return reads;
}

function label(line: SampledLine): string {
  return line.number === undefined ? '~' : String(line.number);
}

function clip(text: string, max: number): string {
  const trimmed = text.trimEnd();
  if (trimmed.length <= max) return trimmed;
  // Never split a surrogate pair.
  let end = max;
  const code = trimmed.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${trimmed.slice(0, end)}… [+${formatCount(trimmed.length - end)} chars]`;
}
