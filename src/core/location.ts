import { formatCount } from './format.js';

/** Where a slice is, in words a caller can continue from. */
export interface SliceLocation {
  unit: 'chars' | 'bytes';
  start: number;
  end: number;
  total: number;
  /** 1-based first and last line the slice touches (text entries only). */
  lines?: { first: number; last: number; total: number };
}

/** `chars 120,000–122,000 of 9,104,233; lines 1,204–1,240 of 88,001` */
export function describeLocation(location: SliceLocation): string {
  const span = `${location.unit} ${formatCount(location.start)}–${formatCount(location.end)} of ${formatCount(location.total)}`;
  if (!location.lines) return span;
  const { first, last, total } = location.lines;
  const lines =
    first === last ? `line ${formatCount(first)}` : `lines ${formatCount(first)}–${formatCount(last)}`;
  return `${span}; ${lines} of ${formatCount(total)}`;
}
