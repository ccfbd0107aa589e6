import { formatCount } from '../../core/format.js';
import type { ObservationInput, RenderedObservation } from './observation-input.js';

/**
 * Seed 004's notice for an auto-offloaded output: `Output too large (…)`, the generated name, how to read it with
 * the named read tool (offset/limit, regex), then `Preview (first 2000 bytes):` and the preview.
 */
export function renderNamedObservation(input: ObservationInput): RenderedObservation {
  const { entry, readTool } = input;
  const size =
    entry.kind === 'binary'
      ? `${formatCount(entry.bytes)} bytes, binary`
      : `${formatCount(entry.chars)} characters`;
  const lines = [
    `Output too large (${size}). Saved to the scratchpad as "${entry.name}" (${input.lifetime}).`,
    `Read it with ${readTool} {"name": "${entry.name}"} (offset and limit for a part, regex for the matching lines).`,
  ];
  if (Object.keys(input.metadata).length > 0) lines.push(`Metadata: ${JSON.stringify(input.metadata)}`);
  lines.push(
    input.headPreview && entry.kind === 'text' ? 'Preview (first 2000 bytes):' : 'Preview:',
    input.preview.text,
  );
  const text = lines.join('\n');
  return { observation: text, text };
}
