/** Small formatting helpers for the views. */

// Sizes read the same in the CLI, the tools and the inspector: one formatter, decimal units (docs/units.md).
export { formatBytes, formatCount } from '../../src/core/format.js';

/** `2026-11-24 12:30:05` in local time, from epoch milliseconds. */
export function formatTime(ms: number): string {
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** Time left until `expiresAt` (epoch ms), or `—` for no TTL. */
export function formatTtl(expiresAt: number | null, now = Date.now()): string {
  if (expiresAt === null) return '—';
  const seconds = Math.round((expiresAt - now) / 1000);
  if (seconds <= 0) return 'expired';
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} d`;
}

/** A RegExp for highlighting, or undefined when the pattern is not valid JavaScript syntax. */
export function highlighter(pattern: string, ignoreCase: boolean): RegExp | undefined {
  if (pattern === '') return undefined;
  try {
    return new RegExp(pattern, ignoreCase ? 'gi' : 'g');
  } catch {
    return undefined;
  }
}

/** Splits `text` into plain and matching parts. */
export function splitMatches(
  text: string,
  pattern: RegExp | undefined,
): Array<{ text: string; match: boolean }> {
  if (!pattern) return [{ text, match: false }];
  const parts: Array<{ text: string; match: boolean }> = [];
  let last = 0;
  pattern.lastIndex = 0;
  for (let found = pattern.exec(text); found !== null; found = pattern.exec(text)) {
    if (found[0].length === 0) {
      pattern.lastIndex += 1;
      continue;
    }
    if (found.index > last) parts.push({ text: text.slice(last, found.index), match: false });
    parts.push({ text: found[0], match: true });
    last = found.index + found[0].length;
    if (parts.length > 400) break;
  }
  if (last < text.length) parts.push({ text: text.slice(last), match: false });
  return parts;
}
