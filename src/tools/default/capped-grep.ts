import { formatBytes, formatCount } from '../../core/format.js';
import type { GrepResult } from '../../service/types.js';
import { TOOL_NAMES } from '../tool-names.js';
import { renderGrep } from './render.js';

/**
 * A grep result whose answer fits in `capBytes`: the first matching lines that fit (with their context), and a
 * description that says where the answer was cut. Returns `result` itself when it fits already.
 */
export function grepWithinCap(result: GrepResult, capBytes: number): GrepResult {
  const fits = (shown: GrepResult): boolean =>
    Buffer.byteLength(renderGrep(shown, TOOL_NAMES.read)) <= capBytes;
  if (fits(result)) return result;
  let low = 0;
  let high = result.matches.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(firstMatches(result, middle, capBytes))) low = middle;
    else high = middle - 1;
  }
  return firstMatches(result, low, capBytes);
}

function firstMatches(result: GrepResult, count: number, capBytes: number): GrepResult {
  const matches = result.matches.slice(0, count);
  const last = matches.at(-1)?.line ?? 0;
  const blocks = result.blocks
    ?.map((block) => ({ lines: block.lines.filter((line) => line.line <= last) }))
    .filter((block) => block.lines.length > 0);
  const description = `${result.description}; cut to fit one answer (${formatBytes(capBytes)}) after ${formatCount(count)} matching line${count === 1 ? '' : 's'}, at line ${formatCount(last)}: narrow the pattern, lower context, or read from line ${formatCount(last + 1)} with lines`;
  return { ...result, matches, ...(blocks ? { blocks } : {}), description };
}
