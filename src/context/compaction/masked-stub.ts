import type { Entry } from '../../core/entry.js';
import { formatCount } from '../../core/format.js';
import type { StoredResultForm } from './stored-result.js';

const STUB_PREFIX = '[Masked tool result: ';
const MAX_TOOL_CHARS = 100;
/** Past this many lines a stub suggests reading a part (a line range or a regex) rather than the whole. */
const PART_HINT_LINES = 50;

/**
 * The text that replaces a masked tool result: where the whole result is stored, its size, when it expires (if it
 * does), and the exact call that reads it back; a result longer than {@link PART_HINT_LINES} lines also gets the
 * parts the read takes. Pure: the same entry always gives the same bytes, so a history masked once stays the same
 * prefix in every later request.
 *
 * ```
 * [Masked tool result: bash output stored whole as bash_3 (12,502 chars, 318 lines). Read it back:
 * scratchpad_read {"name": "bash_3"}, a part with "lines": "1:50" or "regex": "…"]
 * [Masked tool result: bash output stored whole as bash_4 (1,210 chars, 12 lines; expires 2026-05-01T11:00:00.000Z).
 * Read it back: scratchpad_read {"name": "bash_4"}]
 * ```
 *
 * Short on purpose: a stub stays in every later request, and most masked results are small, so its length is most
 * of what a masked history still carries (issue 33 cites the LRO paper: a bare pointer did as well as a rich
 * descriptor). The entry's name is the whole address (no id); an entry kept until deleted says nothing of its lifetime.
 *
 * A result stored as the JSON of its content (several parts, images; `form` `json`) says so before its sizes,
 * which are the entry's: `(the JSON of its content, 25,010 chars, 1 lines)`.
 */
export function renderMaskedStub(
  tool: string,
  entry: Entry,
  readTool: string,
  form: StoredResultForm = 'text',
): string {
  // The tool name comes from the conversation (untrusted): one line, bounded.
  const flat = tool.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ');
  const name = flat.length > MAX_TOOL_CHARS ? `${flat.slice(0, MAX_TOOL_CHARS)}…` : flat;
  const size =
    entry.kind === 'binary'
      ? `binary, ${formatCount(entry.bytes)} bytes`
      : `${form === 'json' ? 'the JSON of its content, ' : ''}${formatCount(entry.chars)} chars, ${formatCount(entry.lines)} lines`;
  const lifetime = entry.expiresAt === null ? '' : `; expires ${new Date(entry.expiresAt).toISOString()}`;
  const parts = entry.lines > PART_HINT_LINES ? ', a part with "lines": "1:50" or "regex": "…"' : '';
  return (
    `${STUB_PREFIX}${name} output stored whole as ${entry.name} (${size}${lifetime}). ` +
    `Read it back: ${readTool} {"name": "${entry.name}"}${parts}]`
  );
}

/**
 * Whether a tool result already is a stub (masked by an earlier call). A result that merely looks like one is left
 * as it is, which loses nothing: it is only not masked.
 */
export function isMaskedStub(text: string): boolean {
  return text.startsWith(STUB_PREFIX) && text.endsWith(']') && text.length < 1000;
}
