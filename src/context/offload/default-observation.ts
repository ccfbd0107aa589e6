import { formatCount } from '../../core/format.js';
import type { PreviewRead, PreviewText } from '../previews/preview-builder.js';
import type { ObservationInput, RenderedObservation } from './observation-input.js';
import { MAX_SHOWN_METADATA_CHARS } from './result-fields.js';

const MAX_TOOL_CHARS = 100;
const READ_WINDOW = 50;

/**
 * This project's observation for an offloaded result: one header line with the name, id, sizes and kind, the
 * metadata, the preview, and the exact calls that read more (the preview's suggested reads; else a line range
 * around its focus and a regex for a name it lists).
 *
 * ```
 * [bash output stored as bash_3 (id 485d7beae4e144eb, text, 12,502 chars, 318 lines; kept for 1 hour (until 2026-04-26T19:25:40Z)); not shown in full]
 * Text, 318 lines of 12 kinds (repetitive, like a log); 1 error line:
 * First lines:
 *   1: 2026-04-26T18:22:01Z INFO worker started pid=4113
 * Last lines:
 *   318: 2026-04-26T18:25:40Z INFO worker stopped
 * Stands out ([×N]: N lines of that kind):
 *   312: 2026-04-26T18:25:39Z ERROR parse_header: bad input
 * New names:
 *   12-40: parse_header HeaderError …
 * Read more: scratchpad_read {"name": "bash_3", "regex": "ERROR"} or {"name": "bash_3", "lines": "307:336"}
 * ```
 */
export function renderDefaultObservation(input: ObservationInput): RenderedObservation {
  const { entry, readTool, preview } = input;
  // The tool name is untrusted: one line, bounded, so it cannot add lines of its own to the observation.
  const flat = input.tool.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ');
  const tool = flat.length > MAX_TOOL_CHARS ? `${flat.slice(0, MAX_TOOL_CHARS)}…` : flat;
  const size =
    entry.kind === 'binary'
      ? `binary, ${formatCount(entry.bytes)} bytes`
      : `text, ${formatCount(entry.chars)} chars, ${formatCount(entry.lines)} lines`;
  const lines = [
    `[${tool} output stored as ${entry.name} (id ${entry.id}, ${size}; ${input.lifetime}); not shown in full]`,
  ];
  if (Object.keys(input.metadata).length > 0) {
    const metadata = JSON.stringify(input.metadata);
    lines.push(
      `Metadata: ${metadata.length > MAX_SHOWN_METADATA_CHARS ? `${metadata.slice(0, MAX_SHOWN_METADATA_CHARS)}…` : metadata}`,
    );
  }
  if (preview.text.length > 0) lines.push(preview.text);
  const call = (args: string) => `{"name": "${entry.name}", ${args}}`;
  if (entry.kind === 'binary') {
    lines.push(`Read bytes: ${readTool} ${call('"head": 3000, "encoding": "hex"')}`);
  } else {
    const reads =
      (preview.reads ?? []).length > 0
        ? (preview.reads as PreviewRead[])
        : fallbackReads(preview, entry.lines);
    const calls = reads.map((read) =>
      'lines' in read
        ? call(`"lines": ${JSON.stringify(read.lines)}`)
        : call(`"regex": ${JSON.stringify(read.regex)}`),
    );
    lines.push(`Read more: ${readTool} ${calls.join(' or ')}`);
  }
  const text = lines.join('\n');
  return { observation: text, text };
}

/** Reads for a preview that suggests none: a line range around its focus and a regex (its example, or a placeholder). */
function fallbackReads(preview: PreviewText, totalLines: number): PreviewRead[] {
  const focus = Math.min(Math.max(1, preview.focusLine ?? 1), Math.max(1, totalLines));
  const first = Math.max(1, focus - 10);
  const last = Math.max(first, Math.min(totalLines, first + READ_WINDOW - 1));
  return [{ lines: `${first}:${last}` }, { regex: preview.searchExample ?? 'PATTERN' }];
}
