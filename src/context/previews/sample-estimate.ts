import { Buffer } from 'node:buffer';
import { formatBytes, formatCount } from '../../core/format.js';
import type { ContentSample } from './content-sample.js';

/** How a count read from a sample of a text is stated for the whole text: an estimate, marked as one. */
export interface SampleEstimate {
  /** `(estimated from 786 KB of 5.4 MB)`: the note that goes beside estimated numbers. */
  note: string;
  /** `786 KB`: the sample's UTF-8 size. */
  sampled: string;
  /** `5.4 MB`: the whole text's UTF-8 size. */
  whole: string;
  /** The whole text's size over the sample's (in characters). */
  factor: number;
  /** A count of occurrences in the sample, scaled to the whole text (rounded to two significant digits). */
  scale(count: number): number;
}

/** An estimated number as it is shown: `≈1,600`. */
export function approx(count: number): string {
  return `≈${formatCount(count)}`;
}

/**
 * The estimate for a sampled text of `totalBytes` UTF-8 bytes, or `undefined` when the sample is the whole text
 * (its counts are exact). Occurrences scale with the share of the text the sample covers, rounded to two
 * significant digits so that no estimate looks more precise than it is.
 */
export function sampleEstimate(sample: ContentSample, totalBytes: number): SampleEstimate | undefined {
  if (sample.complete) return undefined;
  let sampledBytes = 0;
  for (const line of sample.lines) sampledBytes += Buffer.byteLength(line.text) + 1;
  sampledBytes = Math.min(sampledBytes, totalBytes);
  const factor = sample.totalChars / Math.max(1, sample.sampledChars);
  const sampled = formatBytes(sampledBytes);
  const whole = formatBytes(totalBytes);
  return {
    note: `(estimated from ${sampled} of ${whole})`,
    sampled,
    whole,
    factor,
    scale: (count) => twoDigits(count * factor),
  };
}

/** An estimate rounded to two significant digits (whole below 100), so that it looks no more precise than it is. */
export function twoDigits(value: number): number {
  if (value < 100) return Math.round(value);
  const unit = 10 ** (Math.floor(Math.log10(value)) - 1);
  return Math.round(value / unit) * unit;
}
