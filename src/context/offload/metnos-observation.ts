import type { ObservationInput, RenderedObservation } from './observation-input.js';

/** Seed 000's `_note`, with the read tool's name. */
export function metnosNote(readTool: string): string {
  return `Large observation saved in scratchpad. To read it in full or partially, use the ${readTool} tool.`;
}

/**
 * Seed 000's synthetic observation, field for field: `{ok, scratchpad_id, size_bytes, kind, summary, metadata, _note}`.
 * The text is its JSON. The `_note` is the seed's exact sentence: the seed pins it, so the entry's lifetime (which
 * every other observation format states) is not appended here.
 */
export function renderMetnosObservation(input: ObservationInput): RenderedObservation {
  const observation = {
    ok: true,
    scratchpad_id: input.entry.id,
    size_bytes: input.entry.bytes,
    kind: input.entry.kind,
    summary: input.preview.text,
    metadata: input.metadata,
    _note: metnosNote(input.readTool),
  };
  return { observation, text: JSON.stringify(observation) };
}
