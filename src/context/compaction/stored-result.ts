import { isWellFormedText } from '../../core/utf8.js';

/**
 * How a tool result is stored when it is masked, so that the original rebuilds exactly from the entry:
 *
 * - `text`: the result is one string (OpenAI or Anthropic `content: string`, AI SDK `{type: 'text' | 'error-text',
 *   value}` with no other field); the entry is that string.
 * - `text-part`: the result is one part `{type: 'text', text}` with no other field (OpenAI content parts,
 *   Anthropic blocks, AI SDK `{type: 'content', value: [part]}`); the entry is its text.
 * - `json`: anything else (several parts, images, `cache_control`, AI SDK JSON or `providerOptions`), and a text
 *   with a lone UTF-16 surrogate (UTF-8 text cannot hold it; JSON escapes it); the entry is the JSON of the whole
 *   content (OpenAI, Anthropic) or of the whole `output` object (AI SDK). Parts are never joined: two text parts
 *   joined would merge the last line of one with the first of the next.
 */

/** How a masked result's entry holds it. */
export type StoredResultForm = 'text' | 'text-part' | 'json';

/** The message shape a tool result was found in. */
export type MessageShape = 'openai' | 'anthropic' | 'ai-sdk';

/** A result as it is stored: the text of the entry and how to read it back. */
export interface StoredResult {
  text: string;
  form: StoredResultForm;
}

type Loose = Record<string, unknown>;

/**
 * The stored form of a result: OpenAI's `content`, Anthropic's `tool_result.content`, or the AI SDK's `output`.
 * `undefined` when there is nothing to store (no content, an AI SDK `execution-denied`, a malformed output).
 */
export function storedResult(shape: MessageShape, value: unknown): StoredResult | undefined {
  if (shape === 'ai-sdk') return storedAiSdkOutput(value);
  if (typeof value === 'string')
    return isWellFormedText(value)
      ? { text: value, form: 'text' }
      : { text: JSON.stringify(value), form: 'json' };
  if (!Array.isArray(value)) return undefined;
  const only = value.length === 1 ? plainTextPart(value[0]) : undefined;
  if (only !== undefined) return { text: only, form: 'text-part' };
  return { text: JSON.stringify(value), form: 'json' };
}

/**
 * The original result from its entry's text and form: what {@link storedResult} was given, equal as JSON (the
 * content for OpenAI and Anthropic, the `output` for the AI SDK). `isError` picks `error-text` for an AI SDK text.
 */
export function rebuildMaskedResult(
  shape: MessageShape,
  stored: StoredResult,
  isError = false,
): string | Loose | unknown[] {
  const { text, form } = stored;
  if (form === 'json') return JSON.parse(text) as Loose | unknown[];
  const part = { type: 'text', text };
  if (shape !== 'ai-sdk') return form === 'text' ? text : [part];
  return form === 'text'
    ? { type: isError ? 'error-text' : 'text', value: text }
    : { type: 'content', value: [part] };
}

function storedAiSdkOutput(output: unknown): StoredResult | undefined {
  if (!isObject(output)) return undefined;
  const { type, value } = output;
  const onlyTypeAndValue = Object.keys(output).every((key) => key === 'type' || key === 'value');
  if (type === 'execution-denied') return undefined; // it holds no result to store
  if ((type === 'text' || type === 'error-text') && typeof value === 'string') {
    return onlyTypeAndValue && isWellFormedText(value)
      ? { text: value, form: 'text' }
      : { text: JSON.stringify(output), form: 'json' };
  }
  if (type === 'json' || type === 'error-json') return { text: JSON.stringify(output), form: 'json' };
  if (type === 'content' && Array.isArray(value)) {
    const only = onlyTypeAndValue && value.length === 1 ? plainTextPart(value[0]) : undefined;
    return only !== undefined
      ? { text: only, form: 'text-part' }
      : { text: JSON.stringify(output), form: 'json' };
  }
  return undefined;
}

/** The text of `{type: 'text', text}` with no other field (a field more would be lost by storing the text). */
function plainTextPart(part: unknown): string | undefined {
  if (!isObject(part) || part.type !== 'text' || typeof part.text !== 'string') return undefined;
  return Object.keys(part).length === 2 && isWellFormedText(part.text) ? part.text : undefined;
}

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
