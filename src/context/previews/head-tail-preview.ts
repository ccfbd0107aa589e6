import { codePointLength } from '../../core/utf8.js';
import { codePointPrefix, codePointSuffix } from './code-points.js';

/** Options for {@link headTailPreview}. */
export interface HeadTailPreviewOptions {
  /** Characters (code points) kept from the start (default 500). */
  head?: number;
  /** Characters kept from the end (default 500). */
  tail?: number;
}

/**
 * Seed 000's summary: the first 500 characters, `[... N characters omitted ...]` on its own line with the exact
 * count, then the last 500. Text no longer than head + tail is returned whole.
 */
export function headTailPreview(text: string, options: HeadTailPreviewOptions = {}): string {
  const head = options.head ?? 500;
  const tail = options.tail ?? 500;
  const total = codePointLength(text);
  if (total <= head + tail) return text;
  const omitted = total - head - tail;
  return `${codePointPrefix(text, head)}\n[... ${omitted} characters omitted ...]\n${codePointSuffix(text, tail)}`;
}
