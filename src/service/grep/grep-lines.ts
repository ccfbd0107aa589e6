import type { GrepResult } from '../types.js';

/**
 * A grep result as `grep -n` prints it: `LINE:text` for a matching line, `LINE-text` for a context line, `--`
 * between blocks. `gap` goes between the marker and the text (the CLI prints none, tools print a space).
 */
export function formatGrepLines(result: GrepResult, gap = ''): string {
  if (!result.blocks) return result.matches.map((match) => `${match.line}:${gap}${match.text}`).join('\n');
  return result.blocks
    .map((block) =>
      block.lines.map((line) => `${line.line}${line.match ? ':' : '-'}${gap}${line.text}`).join('\n'),
    )
    .join('\n--\n');
}
