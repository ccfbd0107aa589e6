import type { Entry } from '../../core/entry.js';
import type { JsonObject, JsonValue } from '../../core/json.js';
import type { PreviewText } from '../previews/preview-builder.js';

/** What an observation format renders from. */
export interface ObservationInput {
  /** The tool that produced the result (as the caller named it). */
  tool: string;
  entry: Pick<
    Entry,
    'id' | 'name' | 'kind' | 'bytes' | 'chars' | 'lines' | 'expiresAt' | 'updatedAt' | 'pinned'
  >;
  preview: PreviewText;
  /** True when the preview is the plain first-2,000-bytes head (seed 004 names it in its notice). */
  headPreview: boolean;
  /** The result's metadata. */
  metadata: JsonObject;
  /** The tool that reads entries back. */
  readTool: string;
  /** How long the entry lives ({@link describeLifetime}): `kept for 1 hour (until …)`, `kept for this session …`. */
  lifetime: string;
}

/** An observation: the value to put in the conversation and the text the model reads. */
export interface RenderedObservation {
  observation: JsonValue;
  text: string;
}
