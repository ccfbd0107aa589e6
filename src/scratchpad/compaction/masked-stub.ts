import type { Entry } from '../../core/entry.js';
import { formatCount } from '../../core/format.js';
import type { StoredResultForm } from './stored-result.js';

const STUB_PREFIX = '[Masked tool result: ';
const MAX_TOOL_CHARS = 100;

/**
 * The text that replaces a masked tool result: where the whole result is stored, how long it lives, and the exact
 * call that reads it back. Pure: the same entry always gives the same bytes, so a history masked once stays the same
 * prefix in every later request.
 *
 * ```
 * [Masked tool result: bash output stored whole as bash_3 (id 485d7beae4e144eb, 12,502 chars, 318 lines; kept until
 * deleted). Read it back: scratchpad_read {"name": "bash_3"}, a part with "lines": "1:50" or "regex": "…"]
 * ```
 *
 * A result stored as the JSON of its content (several parts, images; `form` `json`) says so before its sizes,
 * which are the entry's: `(id …, the JSON of its content, 25,010 chars, 1 lines; …)`.
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
  const lifetime =
    entry.expiresAt === null ? 'kept until deleted' : `expires ${new Date(entry.expiresAt).toISOString()}`;
  return (
    `${STUB_PREFIX}${name} output stored whole as ${entry.name} (id ${entry.id}, ${size}; ${lifetime}). ` +
    `Read it back: ${readTool} {"name": "${entry.name}"}, a part with "lines": "1:50" or "regex": "…"]`
  );
}

/**
 * Whether a tool result already is a stub (masked by an earlier call). A result that merely looks like one is left
 * as it is, which loses nothing: it is only not masked.
 */
export function isMaskedStub(text: string): boolean {
  return text.startsWith(STUB_PREFIX) && text.endsWith(']') && text.length < 1000;
}
