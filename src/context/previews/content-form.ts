import { escapeRegex } from '../../core/escape-regex.js';
import { formatCount } from '../../core/format.js';
import type { JsonValue } from '../../core/json.js';
import type { ContentSample, SampledLine } from './content-sample.js';
import {
  type ColumnSummary,
  type DelimitedText,
  rareCategories,
  readDelimited,
  splitDelimited,
} from './delimited-text.js';
import { describeJson, type JsonField, rareValues } from './json-fields.js';
import { exampleItem, jsonShapeLines } from './json-shape.js';
import { type JsonText, readJsonText } from './json-text.js';
import { markupOutline } from './markup-outline.js';
import type { SectionLine } from './preview-sections.js';
import { approx, type SampleEstimate, twoDigits } from './sample-estimate.js';
import type { StandOut } from './stand-outs.js';
import { tableHeader } from './table-header.js';

/** What kind of content a result is, shown as its shape, and what its structure says stands out. */
export interface ContentForm {
  kind: 'json' | 'markup' | 'delimited' | 'table' | 'text';
  /** One line saying what the content is (`CSV, 6 columns, 1,461 rows`). */
  label: string;
  /** The shape, best rank first when space is short. */
  shape: SectionLine[];
  /** Sampled lines the shape shows whole (a header), so other sections need not repeat them. */
  shownIndexes: number[];
  /** Values the structure finds rare or wrong (a category seen once, `"ok": false`), located on their lines. */
  standOuts: StandOut[];
}

/** Options for {@link contentForm}. */
export interface ContentFormOptions {
  /** Characters of the example item (default 600). */
  exampleChars: number;
  /** Characters of a header line (default 2,000). */
  headerChars: number;
  /** When the sample is not the whole text: its counts are scaled to the whole text and marked as estimates. */
  estimate?: SampleEstimate;
}

/**
 * Recognises the content's form from its sample (JSON and JSON Lines, XML and HTML, delimited rows, a table
 * printed by columns, otherwise text) and describes its shape: JSON key paths with types and counts and one example
 * item; the header and each column's type, range or categories; the title and the element outline; the table's
 * header. `json` is the parsed value when the caller has it.
 */
export function contentForm(
  text: string,
  sample: ContentSample,
  json: JsonValue | undefined,
  options: ContentFormOptions,
): ContentForm {
  const parsed: JsonText | undefined =
    json === undefined ? readJsonText(text) : { value: json, form: 'json', complete: true, cut: new Set() };
  if (parsed) return jsonForm(parsed, sample.lines, options);
  const markup = markupOutline(sample.lines, options.estimate !== undefined);
  if (markup) {
    const title = markup.title ? ` titled "${markup.title}"` : '';
    // Elements are counted in the sample: lower bounds for the whole text (a root element is there once).
    const counted = options.estimate
      ? `, ≥: counted in ${options.estimate.sampled} of ${options.estimate.whole}`
      : '';
    const label = `${markup.kind}${title}${markup.root ? `, root <${markup.root}>` : ''}; outline (elements × count${counted}):`;
    return {
      kind: 'markup',
      label,
      shape: markup.lines.map((line) => ({ text: line.text, rank: line.depth })),
      shownIndexes: [],
      standOuts: [],
    };
  }
  const delimited = readDelimited(sample.lines);
  if (delimited) return delimitedForm(delimited, sample, options);
  const table = tableHeader(sample.lines);
  if (table) {
    const shown = [table.header, ...(table.rule === undefined ? [] : [table.rule])].sort((a, b) => a - b);
    return {
      kind: 'table',
      label: `Table by columns, header on line ${sample.lines[table.header]?.number ?? '?'}:`,
      shape: shown.map((index) => ({
        text: `  ${clip((sample.lines[index] as SampledLine).text, options.headerChars)}`,
      })),
      shownIndexes: shown,
      standOuts: [],
    };
  }
  return { kind: 'text', label: '', shape: [], shownIndexes: [], standOuts: [] };
}

function jsonForm(
  parsed: JsonText,
  sampled: readonly SampledLine[],
  options: ContentFormOptions,
): ContentForm {
  const root = describeJson(parsed.value, parsed.cut);
  const shape = jsonShapeLines(root);
  const first = shape[0]?.text ?? '';
  // A cut read, and long arrays described from their first items, give lower bounds: the label says so.
  const bounds = shape.some((line) => line.text.includes('≥'));
  const label =
    parsed.form === 'lines'
      ? `JSON Lines, ${first.replace(/^array\[([^\]]+)\] of/, '$1 records of')}${parsed.complete ? '' : ' (read from the start)'}${bounds ? ' (counts marked ≥ are lower bounds)' : ''}:`
      : parsed.complete
        ? `JSON ${first}${bounds ? ' (counts marked ≥ are lower bounds: long arrays are read to their first 1,000 items)' : ''}:`
        : `JSON ${first} (read from the start: counts marked ≥ are lower bounds):`;
  const lines: SectionLine[] = shape.slice(1).map((line) => ({ text: line.text, rank: line.depth }));
  const example = exampleItem(parsed.value);
  if (example) {
    lines.push({
      text: `Example ${example.path}: ${clip(JSON.stringify(example.item), options.exampleChars)}`,
      rank: 1.5,
    });
  }
  return {
    kind: 'json',
    label,
    shape: lines,
    shownIndexes: [],
    standOuts: estimated(jsonStandOuts(root, sampled), options.estimate),
  };
}

/** Rare category values and values that report a failure (`"ok": false`, `"status": 503`, a non-empty `error`). */
function jsonStandOuts(root: JsonField, sampled: readonly SampledLine[]): StandOut[] {
  const found: StandOut[] = [];
  const visit = (field: JsonField, key: string | undefined, depth: number) => {
    if (depth > 8 || found.length >= 20) return;
    if (key !== undefined) {
      for (const value of rareValues(field)) {
        const located = locate(sampled, key, value);
        if (located) found.push({ ...located, severity: 0 });
      }
      for (const problem of problemValues(key, field)) {
        const located = locate(sampled, key, problem.value);
        if (located) found.push({ ...located, severity: problem.severity });
      }
    }
    for (const [childKey, child] of field.children) visit(child, childKey, depth + 1);
    if (field.items) visit(field.items, key, depth + 1);
  };
  visit(root, undefined, 0);
  return found;
}

function problemValues(key: string, field: JsonField): Array<{ value: JsonValue; severity: 2 | 3 }> {
  const values: Array<{ value: JsonValue; severity: 2 | 3 }> = [];
  if (
    /^(?:ok|success|succeeded|passed)$/i.test(key) &&
    field.booleans.false > 0 &&
    field.booleans.false < field.seen
  ) {
    values.push({ value: false, severity: 3 });
  }
  if (
    /^(?:status|status_?code|statusCode|http_?status)$/i.test(key) &&
    field.max !== undefined &&
    field.max >= 400 &&
    field.max < 600
  ) {
    values.push({ value: field.max, severity: field.max >= 500 ? 3 : 2 });
  }
  return values;
}

/** The first sampled line holding `"key": value`, with how many lines hold it. */
function locate(
  lines: readonly SampledLine[],
  key: string,
  value: JsonValue,
): Omit<StandOut, 'severity'> | undefined {
  const pattern = new RegExp(
    `${escapeRegex(JSON.stringify(key))}\\s*:\\s*${escapeRegex(JSON.stringify(value))}(?![\\w.])`,
  );
  const indexes: number[] = [];
  let count = 0;
  lines.forEach((line, index) => {
    if (!pattern.test(line.text)) return;
    count++;
    if (indexes.length < 5) indexes.push(index);
  });
  if (count === 0) return undefined;
  return { indexes, count, signal: `${JSON.stringify(key)}: ${JSON.stringify(value)}` };
}

function delimitedForm(
  delimited: DelimitedText,
  sample: ContentSample,
  options: ContentFormOptions,
): ContentForm {
  const { columns, headerIndex } = delimited;
  const { estimate } = options;
  const rows = estimate ? approx(estimate.scale(delimited.rows)) : formatCount(delimited.rows);
  // Columns are summarized from the first rows: their counts are exact only when those are all the rows.
  const columnScale = (estimate?.factor ?? 1) * (delimited.rows / Math.max(1, delimited.summarizedRows));
  const count = (value: number) =>
    columnScale === 1 ? formatCount(value) : approx(twoDigits(value * columnScale));
  const columnNote =
    !estimate && columnScale !== 1
      ? `; column counts ≈ estimated from its first ${formatCount(delimited.summarizedRows)} rows`
      : '';
  const header =
    headerIndex === undefined ? 'no header' : `header on line ${sample.lines[headerIndex]?.number}`;
  const shape: SectionLine[] = [];
  if (headerIndex !== undefined) {
    shape.push({ text: `  ${clip((sample.lines[headerIndex] as SampledLine).text, options.headerChars)}` });
  }
  columns.forEach((column) => {
    shape.push({ text: `  ${column.name}: ${describeColumn(column, delimited.rows, count)}`, rank: 1 });
  });
  const standOuts: StandOut[] = [];
  columns.forEach((column, position) => {
    for (const value of rareCategories(column, delimited.summarizedRows)) {
      const indexes: number[] = [];
      let seen = 0;
      sample.lines.forEach((line, index) => {
        if (index === headerIndex || !line.text.includes(value)) return;
        if (splitDelimited(line.text, delimited.delimiter)[position]?.trim() !== value) return;
        seen++;
        if (indexes.length < 5) indexes.push(index);
      });
      if (indexes.length > 0) standOuts.push({ indexes, count: seen, severity: 0, signal: value });
    }
  });
  return {
    kind: 'delimited',
    label: `${delimited.label}, ${columns.length} columns, ${rows} rows${estimate ? ` ${estimate.note}` : ''}, ${header}${columnNote}:`,
    shape,
    shownIndexes: headerIndex === undefined ? [] : [headerIndex],
    standOuts: estimated(standOuts, estimate),
  };
}

/** Stand-outs counted in a sample, their counts scaled to the whole text and marked (when it was sampled). */
function estimated(standOuts: StandOut[], estimate: SampleEstimate | undefined): StandOut[] {
  if (!estimate) return standOuts;
  return standOuts.map((group) => ({ ...group, count: estimate.scale(group.count), estimated: true }));
}

/** `number (0…55.9)`, `"rain" 641, "sun" 640`, `text ("2012-01-01")`, with empties counted. */
function describeColumn(column: ColumnSummary, rows: number, count: (value: number) => string): string {
  const empty = column.empty > 0 ? `, empty in ${count(column.empty)}` : '';
  if (
    column.categories &&
    column.categories.size <= 8 &&
    rows >= 10 &&
    column.categories.size < column.values
  ) {
    const counts = [...column.categories].sort((a, b) => b[1] - a[1]);
    return `${counts.map(([value, seen]) => `${JSON.stringify(value)} ${count(seen)}`).join(', ')}${empty}`;
  }
  if (column.numbers > 0 && column.numbers === column.values && column.min !== undefined) {
    return `number (${column.min}…${column.max})${empty}`;
  }
  const example = column.example === undefined ? '' : ` (${JSON.stringify(clip(column.example, 40))})`;
  return `text${example}${empty}`;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… [+${formatCount(text.length - max)} chars]` : text;
}
