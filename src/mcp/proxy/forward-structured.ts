import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Offloader } from '../../context/offload/offloader.js';
import type { Entry } from '../../core/entry.js';
import type { SessionScratchpad } from '../../service/session-scratchpad.js';
import { entryLink, entryReference } from './entry-link.js';
import { type JsonPath, jsonPointer } from './json-pointer.js';
import { type StoredText, textBlockPlace } from './stored-text.js';
import {
  type OutputSchemaValidator,
  type ShortenedArray,
  shrinkStructured,
  structuredCuts,
} from './structured-preview.js';

/** What the structured part of forwarding needs. */
export interface StructuredConfig {
  session: SessionScratchpad;
  /** The policy's offloader: decides whether a result with no stored text is stored. */
  offloader: Offloader;
  /** Stores whatever it is given (threshold 0): a value the preview cuts is always stored whole. */
  storeAlways: Offloader;
  maxReplyContentBytes: number;
  validator: OutputSchemaValidator;
}

/** What was stored of the result before its `structuredContent` is looked at. */
export interface StoredSoFar {
  /** The entry holding the result's text blocks, when one was stored. */
  text: StoredText | undefined;
  /** The entry holding the `structuredContent` as JSON (the `scratchpad: NAME` of a result without text). */
  structured: Entry | undefined;
}

/**
 * `forwarded` with the result's `structuredContent`: whole when it has nothing to cut, or when nothing of the result
 * was stored and it stays under the threshold itself; else a preview whose every cut value is stored whole where its note says — a
 * string identical to a stored text block points at that block, anything else at its JSON Pointer in an entry
 * holding the whole `structuredContent` as JSON (stored for this, whatever its size). A shortened array ends
 * with a marker item; when the tool's output schema refuses that, the arrays are cut without one and a text
 * block says which and where they are whole; when it refuses that too, the whole value is sent if it fits the
 * reply, else an error names the entry.
 */
export async function withStructured(
  forwarded: CallToolResult,
  structured: Record<string, unknown>,
  stored: StoredSoFar,
  call: { tool: string; outputSchema?: object },
  config: StructuredConfig,
): Promise<CallToolResult> {
  const content = [...forwarded.content];
  let entry = stored.structured;
  const holds = `The structuredContent of ${call.tool}'s result, as JSON`;
  const cuts = structuredCuts(structured);
  // Nothing to cut: sent whole (storing it too would only repeat it).
  if (cuts.length === 0) return { ...forwarded, structuredContent: structured };
  if (!stored.text && !entry) {
    const outcome = await config.offloader.process({
      tool: call.tool,
      result: storableJson(structured),
      mediaType: 'application/json',
    });
    if (!outcome.offloaded) return { ...forwarded, structuredContent: structured };
    entry = outcome.entry;
    content.push({ type: 'text', text: outcome.text }, entryLink(config.session, entry, holds));
  }
  const storeWhole = async (): Promise<Entry> => {
    if (entry) return entry;
    entry = await storeStructured(structured, call.tool, config.storeAlways);
    content.push(entryLink(config.session, entry, holds));
    return entry;
  };
  if (cuts.some((cut) => !(stored.text && textBlockPlace(stored.text, cut.value)))) await storeWhole();

  const reference = (name: string) => entryReference(config.session, name);
  // The pointer is redacted before it is quoted: a secret in a key must not pass in escaped form (`\n`), which
  // the redaction of the whole reply, later, would not recognize.
  const redactor = config.session.scratchpad.redactor;
  const shownPointer = (path: JsonPath) => JSON.stringify(redactor.redactSync(jsonPointer(path)));
  const where = (path: JsonPath, value: unknown): string => {
    const place = stored.text ? textBlockPlace(stored.text, value) : undefined;
    if (stored.text && place) {
      return place.pointer === undefined
        ? `in ${reference(stored.text.entry.name)}`
        : `at ${JSON.stringify(place.pointer)} in the JSON of ${reference(stored.text.entry.name)}`;
    }
    return `at ${shownPointer(path)} in the JSON of ${reference(entry?.name ?? '')}`;
  };
  const conforms = (value: unknown) =>
    !call.outputSchema || config.validator.conforms(call.outputSchema, value);

  const marked = shrinkStructured(structured, where, { arrayMarkers: true });
  if (conforms(marked.value)) return { ...forwarded, content, structuredContent: marked.value as never };
  const unmarked = shrinkStructured(structured, where, { arrayMarkers: false });
  if (unmarked.shortened.length > 0 && conforms(unmarked.value)) {
    content.push({ type: 'text', text: shortenedNote(unmarked.shortened, where, shownPointer) });
    return { ...forwarded, content, structuredContent: unmarked.value as never };
  }
  if (byteLength(structured) + byteLength(content) <= config.maxReplyContentBytes) {
    return { ...forwarded, content, structuredContent: structured };
  }
  const whole = await storeWhole();
  return {
    ...forwarded,
    content: [
      ...content,
      {
        type: 'text',
        text: `The structuredContent of ${call.tool}'s result is too large to send and no shorter form conforms to its output schema; it is stored whole, as JSON, in ${reference(whole.name)}.`,
      },
    ],
    isError: true,
  };
}

/** The text block that says which arrays were cut without a marker, and where each is whole. */
function shortenedNote(
  arrays: ShortenedArray[],
  where: (path: JsonPath, value: unknown) => string,
  shownPointer: (path: JsonPath) => string,
): string {
  const each = arrays.map(
    (array) =>
      `${shownPointer(array.path)} keeps ${array.kept} of ${array.total} items; the whole array is ${where(array.path, [])}`,
  );
  return `The structuredContent is shortened where its output schema allows no marker: ${each.join('; ')}.`;
}

async function storeStructured(
  structured: Record<string, unknown>,
  tool: string,
  storeAlways: Offloader,
): Promise<Entry> {
  const outcome = await storeAlways.process({
    tool,
    result: storableJson(structured),
    mediaType: 'application/json',
  });
  if (!outcome.offloaded) {
    throw new Error(`The structuredContent of ${tool} was not stored (${outcome.reason}).`);
  }
  return outcome.entry;
}

/**
 * The value to give the offloader so that the entry holds the whole value as JSON: the value itself, or its JSON
 * text when it has the `{content, ok | metadata}` shape the offloader would store only the `content` of.
 */
export function storableJson(value: Record<string, unknown>): Record<string, unknown> | string {
  const looksLikeContentResult =
    typeof value.content === 'string' &&
    (typeof value.ok === 'boolean' ||
      (typeof value.metadata === 'object' && value.metadata !== null && !Array.isArray(value.metadata)));
  return looksLikeContentResult ? JSON.stringify(value, null, 2) : value;
}

function byteLength(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}
