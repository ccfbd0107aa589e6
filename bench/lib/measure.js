import { performance } from 'node:perf_hooks';

/** Milliseconds `action` took. */
export async function time(action) {
  const started = performance.now();
  const value = await action();
  return { ms: performance.now() - started, value };
}

/** The `fraction` quantile (0..1) of `values` (nearest rank). */
export function quantile(values, fraction) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index];
}

export function median(values) {
  return quantile(values, 0.5);
}

export const MIB = 1024 * 1024;

/** Rounds for display and JSON. */
export function round(value, digits = 3) {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Prints rows as an aligned text table. */
export function printTable(headers, rows) {
  const cells = [headers, ...rows].map((row) => row.map((cell) => String(cell)));
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => [...row[column]].length)));
  const line = (row) =>
    row.map((cell, column) => cell + ' '.repeat(widths[column] - [...cell].length)).join('  ');
  console.log(line(cells[0]));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of cells.slice(1)) console.log(line(row));
}
