import type { Entry } from '../../core/entry.js';
import { formatBytes, formatCount } from '../../core/format.js';
import { formatGrepLines } from '../../service/grep/grep-lines.js';
import type { GrepResult, ReadResult } from '../../service/types.js';

/** `"log" (text, 89,042 chars, 1,204 lines, 89.0 KB, version 3)` */
export function describeEntry(entry: Entry): string {
  const size =
    entry.kind === 'text'
      ? `${formatCount(entry.chars)} chars, ${formatCount(entry.lines)} lines, ${formatBytes(entry.bytes)}`
      : `${formatBytes(entry.bytes)} binary`;
  return `"${entry.name}" (${size}, version ${entry.version})`;
}

/** A read result as the model sees it: a header that says where the slice is, the slice, and how to continue. */
export function renderRead(result: ReadResult, readTool: string): string {
  const { entry, location } = result;
  const header = `[${entry.name}: ${result.description}${result.encoding !== 'utf8' ? `, ${result.encoding}` : ''}]`;
  if (result.complete) return `${header}\n${result.content}`;
  const hints: string[] = [];
  if (location.end < location.total) {
    hints.push(
      `${formatCount(location.total - location.end)} more ${location.unit} after this: ${readTool} {"name": "${entry.name}", "offset": ${location.end}}`,
    );
  }
  if (location.start > 0) hints.push(`${formatCount(location.start)} ${location.unit} before it`);
  return `${header}\n${result.content}\n[${hints.join('; ')}]`;
}

/** A grep result: one `LINE: text` per match (grep -n style with `LINE- text` context and `--` between blocks). */
export function renderGrep(result: GrepResult, readTool: string): string {
  const header = `[${result.entry.name}: ${result.description} for /${result.pattern}/]`;
  if (result.total === 0) return `${header}\nNo line matches. Try a looser pattern or ignore_case.`;
  const body = formatGrepLines(result, ' ');
  const clipped = result.matches.some((match) => match.clipped);
  const footer: string[] = [];
  if (result.matches.length < result.total)
    footer.push('raise max_matches or narrow the pattern to see more');
  if (clipped)
    footer.push(
      `long lines are clipped around the match; read them with ${readTool} {"name": "${result.entry.name}", "lines": "N:N"}`,
    );
  else footer.push(`read around a match with ${readTool} {"name": "${result.entry.name}", "lines": "A:B"}`);
  return `${header}\n${body}\n[${footer.join('; ')}]`;
}
