import { Buffer } from 'node:buffer';
import type { EntryKind } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import type { JsonObject, JsonValue } from '../../core/json.js';
import { codePointLength, isWellFormedText, loneSurrogates, toWellFormedText } from '../../core/utf8.js';
import { binaryPreview } from '../previews/binary-preview.js';
import { estimateTokens } from '../tokens/estimate-tokens.js';
import type { Tokenizer } from '../tokens/named-tokenizers.js';
import type { SizeMeasure } from './offload-policy.js';
import { metadataWithResultFields } from './result-fields.js';

/** A tool result normalized for the store: what is stored, how it reads inline, and what surrounds it. */
export interface OffloadContent {
  kind: EntryKind;
  /** The stored text ('' for binary). */
  text: string;
  /**
   * The stored bytes. For text they are encoded when first read (and kept): the offloader encodes a large text once,
   * in slices, with `encodeText` (encoded-text.ts) instead, and a result that stays inline is never encoded.
   */
  readonly bytes: Buffer;
  /** The parsed value, when the stored content is JSON. */
  json?: JsonValue;
  mediaType: string;
  /**
   * The result's own metadata (the `metadata` field of a `{ok, content, metadata}` result), with the result's other
   * fields but `content` under `resultFields` (`ok: true` alone adds nothing; see `result-fields.ts`).
   */
  metadata: JsonObject;
  /** The field of the result that is stored (`content`), or `null` when the whole result is. */
  storedField: string | null;
  /** The result without its stored field, when `storedField` is set. */
  shell: JsonObject | null;
  /** The result as the model would read it inline. */
  inlineText: string;
  /** The result's own serialization, for the `json-bytes` measure (a string result's is made when first read). */
  readonly serialized: string;
}

/**
 * Normalizes a tool result: strings are stored as they are; bytes as binary; a `{ok, content, metadata}` result
 * (Metnos executors, many tool layers) stores its `content` and keeps the rest as the shell, its fields beside
 * `content` and `metadata` kept in the entry's metadata and shown (or, when they are too long to show whole, the
 * result is stored as any JSON value is); any other JSON value is stored pretty-printed (two-space indent) so that
 * line reads and grep work on it, and `JSON.parse` of the entry equals the value.
 * Returns `undefined` for `undefined` (nothing to offload).
 */
export function toOffloadContent(result: unknown): OffloadContent | undefined {
  if (result === undefined) return undefined;
  if (typeof result === 'string') return textContent(result, { serialized: () => JSON.stringify(result) });
  if (isBytes(result)) return binaryContent(toBuffer(result), {});
  if (isContentResult(result)) {
    const { content, ...shell } = result;
    const ownMetadata = isPlainObject(result.metadata) ? (toJson(result.metadata) as JsonObject) : {};
    const jsonShell = toJson(shell) as JsonObject;
    // Its other fields are kept with the entry and shown; when they cannot be shown whole, the whole result is
    // stored as JSON below (bytes cannot be: they keep the fields in the entry's metadata).
    const { metadata, shownWhole } = metadataWithResultFields(ownMetadata, jsonShell);
    if (isBytes(content)) return binaryContent(toBuffer(content), { metadata, shell: jsonShell });
    if (shownWhole) {
      const serialized = serialize(result);
      return textContent(content as string, {
        metadata,
        shell: jsonShell,
        inlineText: serialized,
        serialized,
      });
    }
  }
  const compact = serialize(result);
  const json = JSON.parse(compact) as JsonValue;
  return textContent(JSON.stringify(json, null, 2), {
    inlineText: compact,
    serialized: compact,
    json,
    mediaType: 'application/json',
  });
}

/**
 * The size of a result in `measure` units. With `limit`, counting stops once the size is surely past it: a size
 * above `limit` may then be a lower bound (still above it), as a 100 MB text is not counted to say it is big.
 */
export function measureContent(
  content: OffloadContent,
  measure: SizeMeasure,
  tokenizer?: Tokenizer,
  limit?: number,
): number {
  if (content.kind === 'binary') return content.bytes.byteLength;
  if (measure === 'tokens') {
    return tokenizer
      ? tokenizer.countUpTo(content.inlineText, limit ?? Number.POSITIVE_INFINITY)
      : estimateTokens(content.inlineText);
  }
  // A UTF-16 unit is at least one UTF-8 byte, and a code point at most two units.
  if (measure === 'chars') {
    const atLeast = Math.ceil(content.inlineText.length / 2);
    return limit !== undefined && atLeast > limit ? atLeast : codePointLength(content.inlineText);
  }
  const text = measure === 'json-bytes' ? content.serialized : content.inlineText;
  return limit !== undefined && text.length > limit ? text.length : Buffer.byteLength(text, 'utf8');
}

/**
 * Text to store. Stored text is UTF-8, which cannot hold a lone UTF-16 surrogate (half of a pair, as a tool that cuts
 * a string in the middle of an emoji leaves): such a result is stored with U+FFFD in its place, and its metadata,
 * which the observation shows, says how many were replaced.
 */
function textContent(
  result: string,
  extra: {
    metadata?: JsonObject;
    shell?: JsonObject;
    inlineText?: string;
    serialized: string | (() => string);
    json?: JsonValue;
    mediaType?: string;
  },
): OffloadContent {
  const replaced = isWellFormedText(result) ? 0 : loneSurrogates(result).length;
  const text = replaced === 0 ? result : toWellFormedText(result);
  const metadata =
    replaced === 0
      ? (extra.metadata ?? {})
      : {
          ...extra.metadata,
          textReplaced: `${replaced} lone UTF-16 surrogate${replaced === 1 ? '' : 's'} (half of a pair) stored as U+FFFD`,
        };
  let bytes: Buffer | undefined;
  let serialized = typeof extra.serialized === 'string' ? extra.serialized : undefined;
  const serialize = typeof extra.serialized === 'function' ? extra.serialized : () => '';
  return {
    kind: 'text',
    text,
    get bytes() {
      bytes ??= Buffer.from(text, 'utf8');
      return bytes;
    },
    ...(extra.json === undefined ? {} : { json: extra.json }),
    mediaType: extra.mediaType ?? 'text/plain; charset=utf-8',
    metadata,
    storedField: extra.shell ? 'content' : null,
    shell: extra.shell ?? null,
    inlineText: extra.inlineText ?? text,
    get serialized() {
      serialized ??= serialize();
      return serialized;
    },
  };
}

function binaryContent(bytes: Buffer, extra: { metadata?: JsonObject; shell?: JsonObject }): OffloadContent {
  const note = binaryPreview(bytes);
  return {
    kind: 'binary',
    text: '',
    bytes,
    mediaType: 'application/octet-stream',
    metadata: extra.metadata ?? {},
    storedField: extra.shell ? 'content' : null,
    shell: extra.shell ?? null,
    inlineText: note,
    serialized: note,
  };
}

function isBytes(value: unknown): value is Uint8Array | ArrayBuffer {
  return value instanceof Uint8Array || value instanceof ArrayBuffer;
}

function toBuffer(value: Uint8Array | ArrayBuffer): Buffer {
  return value instanceof ArrayBuffer
    ? Buffer.from(value)
    : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/** `{content: string | bytes, ok?: boolean, metadata?: object, …}` with at least `ok` or `metadata`. */
function isContentResult(
  value: unknown,
): value is { content: string | Uint8Array; ok?: unknown; metadata?: unknown } {
  if (!isPlainObject(value)) return false;
  const content = (value as { content?: unknown }).content;
  if (typeof content !== 'string' && !isBytes(content)) return false;
  return (
    typeof (value as { ok?: unknown }).ok === 'boolean' ||
    isPlainObject((value as { metadata?: unknown }).metadata)
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isBytes(value);
}

function serialize(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new ScratchpadError(
      'INVALID_ARGUMENT',
      `The tool result cannot be serialized as JSON: ${(error as Error).message}`,
      {
        hint: 'Return a string, bytes, or a JSON value (no BigInt, no cycles).',
        cause: error,
      },
    );
  }
  if (text === undefined) {
    throw new ScratchpadError('INVALID_ARGUMENT', `A tool result of type ${typeof value} cannot be stored.`, {
      hint: 'Return a string, bytes, or a JSON value.',
    });
  }
  return text;
}

function toJson(value: unknown): JsonValue {
  return JSON.parse(serialize(value)) as JsonValue;
}
