import type { SampledLine } from './content-sample.js';

/** What one column of a delimited text holds. */
export interface ColumnSummary {
  name: string;
  /** Non-empty values seen, and how many of them are numbers. */
  values: number;
  numbers: number;
  empty: number;
  min?: number;
  max?: number;
  /** Counts per value, or `null` once there were too many distinct values to be a category. */
  categories: Map<string, number> | null;
  example?: string;
}

/** A CSV, TSV or similar text: its delimiter, header and columns. */
export interface DelimitedText {
  delimiter: string;
  /** `CSV`, `TSV`, `semicolon-separated` or `pipe-separated`. */
  label: string;
  /** The header line (its index in the sample), when the first line names the columns. */
  headerIndex: number | undefined;
  columns: ColumnSummary[];
  /** Data rows seen in the sample. */
  rows: number;
  /** The first rows, at most 5,000, that the column summaries (values, categories, empties) were made from. */
  summarizedRows: number;
}

const DELIMITERS: ReadonlyArray<[string, string]> = [
  [',', 'CSV'],
  ['\t', 'TSV'],
  [';', 'semicolon-separated'],
  ['|', 'pipe-separated'],
];
const MAX_CATEGORIES = 24;
const MAX_ROWS = 5000;
const MAX_ROW_CHARS = 10_000;
const NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;
const RULE = /^[\s|+:=-]+$/;

/**
 * Reads the sample as delimited rows when its first lines agree on a delimiter: at least three lines, two or more
 * fields, and at least 80% of the first 30 lines with as many fields as the first. Quoted fields may hold the
 * delimiter and `""`. The first line is the header when none of its fields is a number or empty.
 */
export function readDelimited(lines: readonly SampledLine[]): DelimitedText | undefined {
  const head = lines.slice(0, 30).filter((line) => line.text.trim().length > 0);
  // Rows are lines of values; a line this long is a document, not a row.
  if (head.length < 3 || head.some((line) => line.text.length > MAX_ROW_CHARS)) return undefined;
  let best: { delimiter: string; label: string; fields: number } | undefined;
  for (const [delimiter, label] of DELIMITERS) {
    const split = head.map((line) => splitDelimited(line.text, delimiter));
    const counts = split.map((fields) => fields.length);
    const fields = counts[0] as number;
    if (fields < 2) continue;
    const agreeing = counts.filter((count) => count === fields).length;
    if (agreeing < 0.8 * counts.length) continue;
    // Fields are values, not sentences: a log line cut at its one comma or semicolon is not a row.
    const all = split.flat();
    const prose = all.filter((field) => field.trim().split(/\s+/).length > 5).length;
    if (prose > 0.2 * all.length) continue;
    if (!best || fields > best.fields) best = { delimiter, label, fields };
  }
  if (!best) return undefined;
  const first = lines.findIndex((line) => line.text.trim().length > 0);
  const firstFields = splitDelimited((lines[first] as SampledLine).text, best.delimiter).map((field) =>
    field.trim(),
  );
  const hasHeader = firstFields.every((field) => field.length > 0 && !NUMBER.test(field));
  const columns: ColumnSummary[] = firstFields.map((field, index) => ({
    name: hasHeader ? field : `column ${index + 1}`,
    values: 0,
    numbers: 0,
    empty: 0,
    categories: new Map(),
  }));
  let rows = 0;
  for (let index = hasHeader ? first + 1 : first; index < lines.length; index++) {
    const text = (lines[index] as SampledLine).text;
    // Rules under a header (`---+---`) and lines of another shape (a `(120 rows)` footer) are not rows.
    if (text.length > MAX_ROW_CHARS || text.trim().length === 0 || RULE.test(text)) continue;
    const fields = splitDelimited(text, best.delimiter);
    if (fields.length !== columns.length) continue;
    // Every row is counted; the columns are summarized from the first ones.
    if (++rows > MAX_ROWS) continue;
    fields.forEach((raw, column) => {
      addValue(columns[column] as ColumnSummary, raw.trim());
    });
  }
  return {
    delimiter: best.delimiter,
    label: best.label,
    headerIndex: hasHeader ? first : undefined,
    columns,
    rows,
    summarizedRows: Math.min(rows, MAX_ROWS),
  };
}

/** The fields of one delimited line; quoted fields lose their quotes (`"a,b"` → `a,b`, `""` → `"`). */
export function splitDelimited(line: string, delimiter: string): string[] {
  if (!line.includes('"')) return line.split(delimiter);
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  let atStart = true;
  for (let index = 0; index < line.length; index++) {
    const char = line[index] as string;
    if (quoted) {
      if (char === '"' && line[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && atStart) {
      quoted = true;
      atStart = false;
    } else if (char === delimiter) {
      fields.push(field);
      field = '';
      atStart = true;
    } else {
      field += char;
      if (char !== ' ') atStart = false;
    }
  }
  fields.push(field);
  return fields;
}

/** The values of a category column that stand out (seen at most twice and at most once in 100 rows). */
export function rareCategories(column: ColumnSummary, rows: number): string[] {
  if (!column.categories || column.categories.size > 12 || rows < 20) return [];
  const counts = [...column.categories];
  const common = Math.max(0, ...counts.map(([, count]) => count));
  if (common < 10) return [];
  return counts.filter(([, count]) => count <= 2 && count <= rows / 100).map(([value]) => value);
}

function addValue(column: ColumnSummary, value: string): void {
  if (value.length === 0) {
    column.empty++;
    return;
  }
  column.values++;
  column.example ??= value;
  if (NUMBER.test(value)) {
    column.numbers++;
    const number = Number(value);
    column.min = column.min === undefined ? number : Math.min(column.min, number);
    column.max = column.max === undefined ? number : Math.max(column.max, number);
  }
  if (column.categories) {
    column.categories.set(value, (column.categories.get(value) ?? 0) + 1);
    if (column.categories.size > MAX_CATEGORIES) column.categories = null;
  }
}
