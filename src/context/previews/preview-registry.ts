import { ScratchpadError } from '../../core/errors.js';
import { binaryPreview } from './binary-preview.js';
import { readsWhole } from './content-sample.js';
import { firstLastLinesPreview } from './first-last-lines-preview.js';
import { headPreview } from './head-preview.js';
import { headTailPreview } from './head-tail-preview.js';
import { jsonStructurePreview } from './json-structure-preview.js';
import { readJsonText } from './json-text.js';
import type { PreviewBuilder, PreviewInput, PreviewName, PreviewText } from './preview-builder.js';
import { salientPreview } from './salient-preview.js';
import { type TallyOptions, tallyText } from './text-tally.js';

/**
 * The built-in previews by name. Every one answers a binary result with the binary note (a textual preview of
 * bytes would be gibberish); `json-structure` needs a JSON result (a value, or text that reads as JSON) and falls
 * back to head-tail otherwise; `salient` is the default observation's preview.
 */
export const PREVIEW_BUILDERS: Readonly<Record<PreviewName, PreviewBuilder>> = Object.freeze({
  'head-tail': textOnly((input) => headTailPreview(input.text)),
  head: textOnly((input) => headPreview(input.text)),
  'first-last-lines': textOnly((input) => firstLastLinesPreview(input.text)),
  binary: (input: PreviewInput) => binaryPreview(input.bytes),
  'json-structure': textOnly((input) => {
    if (input.json !== undefined) return jsonStructurePreview(input.json);
    const read = readJsonText(input.text);
    return read ? jsonStructurePreview(read.value, { cut: read.cut }) : headTailPreview(input.text);
  }),
  salient: textOnly((input) => salientPreview(input)),
});

/** Resolves a preview given by name or as a builder; `INVALID_ARGUMENT` for an unknown name. */
export function resolvePreview(preview: PreviewName | PreviewBuilder): PreviewBuilder {
  if (typeof preview === 'function') return preview;
  const builder = Object.hasOwn(PREVIEW_BUILDERS, preview) ? PREVIEW_BUILDERS[preview] : undefined;
  if (!builder) {
    throw new ScratchpadError('INVALID_ARGUMENT', `Unknown preview ${JSON.stringify(preview)}.`, {
      hint: `Use one of ${Object.keys(PREVIEW_BUILDERS).join(', ')}, or pass a function.`,
    });
  }
  return builder;
}

/** Runs a builder and normalizes its answer to a {@link PreviewText}. */
export function buildPreview(builder: PreviewBuilder, input: PreviewInput): PreviewText {
  const built = builder(input);
  return typeof built === 'string' ? { text: built } : built;
}

/**
 * Runs a builder on a result as an offload does: the salient preview of a text it reads only a sample of gets the
 * exact counts of the whole text first ({@link tallyText}, at grep speed, without stalling the event loop), so the
 * numbers it shows are the whole text's, not the sample's. Other builders run as {@link buildPreview} runs them.
 */
export async function buildWholePreview(
  builder: PreviewBuilder,
  input: PreviewInput,
  tallyOptions?: TallyOptions,
): Promise<PreviewText> {
  const wantsTally = builder === PREVIEW_BUILDERS.salient && input.kind === 'text' && !readsWhole(input.text);
  const tally = wantsTally ? await tallyText(input.text, tallyOptions) : undefined;
  return buildPreview(builder, tally ? { ...input, tally } : input);
}

function textOnly(builder: (input: PreviewInput) => string | PreviewText): PreviewBuilder {
  return (input) => (input.kind === 'binary' ? binaryPreview(input.bytes) : builder(input));
}
