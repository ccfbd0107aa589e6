import type { JsonObject } from '../../core/json.js';

/** The metadata key that holds the fields of a `{ok, content, metadata}` result beside its content and metadata. */
export const RESULT_FIELDS_KEY = 'resultFields';

/**
 * The longest metadata an observation shows whole (the default format clips longer metadata with `…`). A result
 * whose metadata and fields would be longer is stored whole as JSON instead, so that nothing it holds is only in a
 * clipped line: the model cannot read an entry's metadata back, only its content.
 */
export const MAX_SHOWN_METADATA_CHARS = 1000;

/**
 * The metadata an offloaded `{ok, content, metadata, …}` result is stored and shown with: its own metadata, and
 * every other field of the result but `content` (`ok: false`, `error`, an exit code …) under
 * {@link RESULT_FIELDS_KEY}. `ok: true` alone adds nothing: every observation of an offload reports success.
 * `shownWhole` is false when an observation cannot show it whole: its JSON is longer than
 * {@link MAX_SHOWN_METADATA_CHARS}, or the result's metadata has a key {@link RESULT_FIELDS_KEY} of its own (the
 * fields then replace it here).
 */
export function metadataWithResultFields(
  metadata: JsonObject,
  shell: JsonObject,
): { metadata: JsonObject; shownWhole: boolean } {
  const { metadata: _metadata, content: _content, ...fields } = shell;
  const keys = Object.keys(fields);
  if (keys.length === 0 || (keys.length === 1 && fields.ok === true)) {
    return { metadata, shownWhole: JSON.stringify(metadata).length <= MAX_SHOWN_METADATA_CHARS };
  }
  const withFields = { ...metadata, [RESULT_FIELDS_KEY]: fields };
  return {
    metadata: withFields,
    shownWhole:
      !Object.hasOwn(metadata, RESULT_FIELDS_KEY) &&
      JSON.stringify(withFields).length <= MAX_SHOWN_METADATA_CHARS,
  };
}
