import type { Entry } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import { escapedLiterals, escapeRegex } from '../../core/escape-regex.js';
import { eventLoopSlices } from '../../core/event-loop-slices.js';
import type { JsonObject, JsonValue } from '../../core/json.js';
import { describeLifetime } from '../../core/lifetime.js';
import type { Redactor } from '../../core/redaction/redactor.js';
import type { SessionScratchpad } from '../../service/scratchpad.js';
import type { PreviewContext, PreviewRead, PreviewText } from '../previews/preview-builder.js';
import { buildWholePreview, PREVIEW_BUILDERS } from '../previews/preview-registry.js';
import { loadTokenizer } from '../tokens/named-tokenizers.js';
import { renderDefaultObservation } from './default-observation.js';
import { findDuplicateEntry } from './duplicate-entry.js';
import { type EncodedText, encodeText } from './encoded-text.js';
import { EntryNamer } from './entry-namer.js';
import { renderMetnosObservation } from './metnos-observation.js';
import { renderNamedObservation } from './named-observation.js';
import type { ObservationInput, RenderedObservation } from './observation-input.js';
import { measureContent, type OffloadContent, toOffloadContent } from './offload-content.js';
import type { ObservationFormat, OffloadPolicy } from './offload-policy.js';
import { metadataWithResultFields } from './result-fields.js';
import { storedPreview } from './stored-preview.js';
import { type SummaryOutcome, summaryPreview, wantsSummary } from './summary-preview.js';

/** Configuration of {@link createOffloader}. */
export interface OffloaderConfig {
  /** The session offloaded results are stored in. */
  session: SessionScratchpad;
  /** From {@link createOffloadPolicy}. */
  policy: OffloadPolicy;
}

/** One tool result to process. */
export interface OffloadRequest {
  /** The tool that produced it (untrusted: entry names use a sanitized fragment of it). */
  tool: string;
  /** A string, bytes, a `{ok, content, metadata}` result, or any JSON value. */
  result: unknown;
  turn?: string;
  step?: number;
  /** Metadata to keep with the entry and show the model, over the result's own. */
  metadata?: JsonObject;
  /** The media type to store (an image's `image/png`), over the one the result's shape implies. */
  mediaType?: string;
  /** The task and the earlier steps (only the past), for previews that choose what to show. */
  context?: PreviewContext;
}

/** Why a result stayed inline. */
export type InlineReason = 'exempt' | 'below-threshold' | 'no-savings' | 'empty';

/** What {@link Offloader.process} decided. */
export type OffloadOutcome =
  | {
      offloaded: false;
      reason: InlineReason;
      /** The result, unchanged (what references pipe). */
      observation: unknown;
      /** The result as the model reads it (strings as they are, JSON serialized), its secrets redacted. */
      text: string;
    }
  | {
      offloaded: true;
      entry: Entry;
      /** What the model gets instead: the seed 000 object for `metnos`, text otherwise. */
      observation: JsonValue;
      /** The observation as the model reads it. */
      text: string;
      /** The preview inside the observation. */
      preview: string;
      /** The field of the result that was stored (`content`), or `null` when the entry holds the whole result. */
      storedField: string | null;
      /** The result without its stored field (when `storedField` is set). */
      shell: JsonObject | null;
      /** With the policy's `summarize`, for outputs in its size range: where the preview came from. */
      summary?: SummaryOutcome;
    };

/** A result too large to hold, streamed into the store as it is produced (an executor's content channel). */
export interface StreamOffloadRequest {
  tool: string;
  /** The bytes, read once. */
  content: AsyncIterable<Uint8Array>;
  turn?: string;
  step?: number;
}

/** An entry {@link Offloader.storeStream} wrote, to describe to the model once the result is complete. */
export interface DescribeStoredRequest {
  tool: string;
  entry: Entry;
  /** The result's metadata, kept with the entry and shown. */
  metadata: JsonObject;
  /** The result without its content. */
  shell: JsonObject;
  context?: PreviewContext;
}

/** Decides per tool result whether it stays inline or is stored whole and replaced by a synthetic observation. */
export interface Offloader {
  readonly policy: OffloadPolicy;
  process(request: OffloadRequest): Promise<OffloadOutcome>;
  /**
   * Stores a streamed result whole under `<tool>_<n>` (create mode, the policy's lifetime) without holding it:
   * the caller decided it is too large to stay inline. The store decides its kind (text when valid UTF-8).
   */
  storeStream(request: StreamOffloadRequest): Promise<Entry>;
  /**
   * The observation for an entry {@link storeStream} wrote: the result's metadata is added to the entry and the
   * preview is built from windows read back from the store (`sampleEntry`), never from the whole content.
   */
  describeStored(request: DescribeStoredRequest): Promise<Extract<OffloadOutcome, { offloaded: true }>>;
}

const RENDERERS: Record<ObservationFormat, (input: ObservationInput) => RenderedObservation> = {
  default: renderDefaultObservation,
  metnos: renderMetnosObservation,
  named: renderNamedObservation,
};

const MAX_SOURCE_CHARS = 200;

/**
 * Creates an offloader over one session. Example:
 *
 * ```ts
 * const offloader = createOffloader({ session: scratchpad.session('s1'), policy: createOffloadPolicy() });
 * const outcome = await offloader.process({ tool: 'bash', result: hugeLog, turn: 't1', step: 3, context });
 * messages.push({ role: 'tool', content: outcome.text });
 * ```
 */
export function createOffloader(config: OffloaderConfig): Offloader {
  const { session, policy } = config;
  const namer = new EntryNamer(session);
  return {
    policy,
    async process(request: OffloadRequest): Promise<OffloadOutcome> {
      const { tool } = request;
      if (typeof tool !== 'string' || tool.length === 0) {
        throw new ScratchpadError(
          'INVALID_ARGUMENT',
          'An offload request needs the name of the tool that produced the result.',
          {
            hint: 'Pass { tool: "bash", result }.',
          },
        );
      }
      const inline = async (reason: InlineReason, content?: OffloadContent) =>
        inlineOutcome(session.scratchpad.redactor, request.result, reason, content);
      if (policy.isExempt(tool)) return inline('exempt');
      const content = toOffloadContent(request.result);
      if (content === undefined || isEmpty(content)) return inline('empty');
      const threshold = policy.thresholdFor(tool);
      const tokenizer = policy.measure === 'tokens' ? await loadTokenizer(policy.tokenizer) : undefined;
      if (
        content.kind === 'text' &&
        measureContent(content, policy.measure, tokenizer, threshold) <= threshold
      ) {
        return inline('below-threshold', content);
      }
      // Encoded once, its counts made in the same pass: these bytes are what the store writes.
      const encoded = content.kind === 'text' ? await encodeText(content.text) : undefined;
      const bytes = encoded?.bytes ?? content.bytes;
      const builder = policy.previewFor(tool);
      const redactor = session.scratchpad.redactor;
      const built = await redactPreview(
        redactor,
        await buildWholePreview(
          builder,
          {
            kind: content.kind,
            text: content.text,
            bytes,
            ...(content.json === undefined ? {} : { json: content.json }),
            context: pastOnly(request.context),
          },
          // The encoding counted the lines already.
          encoded ? { lines: encoded.lines } : undefined,
        ),
        content.kind === 'text' ? content.text : undefined,
      );
      let preview = built;
      let summary: SummaryOutcome | undefined;
      if (policy.summarize && wantsSummary(policy.summarize, content.kind, bytes.byteLength)) {
        // The summarizer is a model too: it gets the output as redacted as what the model sees, and its answer is
        // redacted again (it may repeat a secret the redactor's patterns would catch).
        const sent = redactor.enabled ? await redactor.redact(content.text) : content.text;
        ({ preview, outcome: summary } = await summaryPreview(
          policy.summarize,
          sent,
          built,
          request.context?.task,
        ));
        preview = await redactPreview(redactor, preview);
      }
      const metadata: JsonObject = { ...content.metadata, ...(request.metadata ?? {}) };
      const shownMetadata = await redactor.redactValue(metadata);
      const render = (entry: ObservationInput['entry']) =>
        RENDERERS[policy.format]({
          tool,
          entry,
          preview,
          headPreview: builder === PREVIEW_BUILDERS.head,
          metadata: shownMetadata,
          readTool: policy.readTool,
          lifetime: describeLifetime(entry, entry.updatedAt),
        });
      if (policy.minSavings > 0 && encoded) {
        const provisional = render(provisionalEntry(await namer.peek(tool), encoded, policy.ttlMs));
        if (provisional.text.length > (1 - policy.minSavings) * content.inlineText.length) {
          return inline('no-savings', content);
        }
      }
      const source = tool.length > MAX_SOURCE_CHARS ? tool.slice(0, MAX_SOURCE_CHARS) : tool;
      const turn = request.turn ?? null;
      const entry =
        (await reuse(session, policy, { tool, source, turn, kind: content.kind, bytes, metadata })) ??
        (
          await namer.create(tool, bytes, {
            kind: content.kind,
            mediaType: request.mediaType ?? content.mediaType,
            metadata,
            turn,
            step: request.step ?? null,
            source,
            // A tool result can be produced again: a size cap may evict it, never what someone wrote.
            evictable: true,
            ...(policy.ttlMs === undefined ? {} : { ttlMs: policy.ttlMs }),
          })
        ).entry;
      const rendered = render(entry);
      return {
        offloaded: true,
        entry,
        observation: rendered.observation,
        text: rendered.text,
        preview: preview.text,
        storedField: content.storedField,
        shell: content.shell,
        ...(summary ? { summary } : {}),
      };
    },
    async storeStream(request) {
      const { tool } = request;
      const source = tool.length > MAX_SOURCE_CHARS ? tool.slice(0, MAX_SOURCE_CHARS) : tool;
      const written = await namer.create(tool, request.content, {
        turn: request.turn ?? null,
        step: request.step ?? null,
        source,
        evictable: true,
        ...(policy.ttlMs === undefined ? {} : { ttlMs: policy.ttlMs }),
      });
      return written.entry;
    },
    async describeStored(request) {
      const { tool } = request;
      // The result's fields beside its content are kept with the entry, as a result held whole is.
      const { metadata } = metadataWithResultFields(request.metadata, request.shell);
      const entry =
        Object.keys(metadata).length === 0
          ? request.entry
          : await session.update({ id: request.entry.id }, { metadata });
      const redactor = session.scratchpad.redactor;
      const builder = policy.previewFor(tool);
      const stored = await storedPreview(session, entry, builder, pastOnly(request.context));
      let preview = await redactPreview(redactor, stored.preview, stored.seen);
      let summary: SummaryOutcome | undefined;
      if (policy.summarize && wantsSummary(policy.summarize, entry.kind, entry.bytes)) {
        // Within the summary's size range (at most its `maxBytes`), the stored text is read back whole for the
        // summarizer, redacted as a result held whole is.
        const text = (await session.read({ id: entry.id }, { type: 'full' })).content;
        const sent = redactor.enabled ? await redactor.redact(text) : text;
        ({ preview, outcome: summary } = await summaryPreview(
          policy.summarize,
          sent,
          preview,
          request.context?.task,
        ));
        preview = await redactPreview(redactor, preview);
      }
      const rendered = RENDERERS[policy.format]({
        tool,
        entry,
        preview,
        headPreview: builder === PREVIEW_BUILDERS.head,
        metadata: await redactor.redactValue(metadata),
        readTool: policy.readTool,
        lifetime: describeLifetime(entry, entry.updatedAt),
      });
      return {
        offloaded: true,
        entry,
        observation: rendered.observation,
        text: rendered.text,
        preview: preview.text,
        storedField: 'content',
        shell: request.shell,
        ...(summary ? { summary } : {}),
      };
    },
  };
}

/**
 * The entry that already holds this exact result (no re-offload of the same bytes), its lifetime renewed as a new
 * entry's would start.
 */
async function reuse(
  session: SessionScratchpad,
  policy: OffloadPolicy,
  query: Parameters<typeof findDuplicateEntry>[1],
): Promise<Entry | undefined> {
  const existing = await findDuplicateEntry(session, query);
  if (!existing || policy.ttlMs === undefined || existing.expiresAt === null) return existing;
  return session.update({ id: existing.id }, { ttlMs: policy.ttlMs });
}

/** The result kept inline: `observation` unchanged (references pipe it exactly), `text` redacted for the model. */
async function inlineOutcome(
  redactor: Redactor,
  result: unknown,
  reason: InlineReason,
  content?: OffloadContent,
): Promise<OffloadOutcome> {
  const text = content
    ? content.inlineText
    : typeof result === 'string'
      ? result
      : result === undefined
        ? ''
        : safeText(result);
  return { offloaded: false, reason, observation: result, text: await redactor.redact(text) };
}

function safeText(result: unknown): string {
  try {
    return toOffloadContent(result)?.inlineText ?? '';
  } catch {
    return String(result);
  }
}

/**
 * The preview with its secrets redacted (its text, its suggested search and reads). A suggested search is a word picked out
 * of `source`, which can be the body of a token without the prefix its pattern knows it by (`glpat-…` gives a bare
 * `WB5wh…`): redacted alone it would pass. So it is checked where it stands: when redacting the text around its
 * place in `source` removes it, it is part of a secret, and it is masked wherever the preview shows it.
 */
async function redactPreview(
  redactor: Redactor,
  preview: PreviewText,
  source?: string,
): Promise<PreviewText> {
  if (!redactor.enabled) return preview;
  let text = redactor.redactSync(preview.text);
  const shown = async (word: string): Promise<string> => {
    const redacted = redactor.redactSync(word);
    // A word redaction changes holds a secret of its own: what is shown is already redacted.
    if (redacted !== word || source === undefined || !(await partOfSecret(redactor, source, word)))
      return redacted;
    text = text.replaceAll(word, SECRET_PART);
    return SECRET_PART;
  };
  // A suggested regex is escaped words (`a\.b|c`): each word is checked as it stands in the output, unescaped, and
  // a word that holds or is part of a secret is left out (its redacted form would match nothing in the stored
  // text); a regex of no words left is dropped.
  const shownRegex = async (regex: string): Promise<string | undefined> => {
    const literals = escapedLiterals(regex);
    if (literals === undefined) {
      const shownWhole = await shown(regex);
      return shownWhole === SECRET_PART ? undefined : shownWhole;
    }
    const kept: string[] = [];
    for (const literal of literals) if ((await shown(literal)) === literal) kept.push(literal);
    return kept.length === 0 ? undefined : kept.map(escapeRegex).join('|');
  };
  const searchExample =
    preview.searchExample === undefined ? undefined : await shownRegex(preview.searchExample);
  const reads: PreviewRead[] = [];
  for (const read of preview.reads ?? []) {
    if (!('regex' in read)) reads.push(read);
    else {
      const regex = await shownRegex(read.regex);
      if (regex !== undefined) reads.push({ regex });
    }
  }
  // The suggestions are replaced, not merged: one left out must not come back from `preview`.
  const { searchExample: _searchExample, reads: _reads, ...rest } = preview;
  return {
    ...rest,
    text,
    ...(searchExample === undefined ? {} : { searchExample }),
    ...(preview.reads === undefined ? {} : { reads }),
  };
}

/** What replaces a word of the preview that is part of a secret in the output. */
const SECRET_PART = '[REDACTED:secret-part]';
/** Characters on each side of a word redacted with it to see whether it is part of a secret (a PEM key fits). */
const SECRET_CONTEXT_CHARS = 16 * 1024;

/**
 * True when `word`, at its first place in `source`, is removed by redacting the text around it. The place is looked
 * up in slices (a word the preview made up is not in a 100 MB output, and one `indexOf` over all of it blocks).
 */
async function partOfSecret(redactor: Redactor, source: string, word: string): Promise<boolean> {
  if (word.length < 4) return false;
  const at = await indexOfInSlices(source, word);
  if (at === -1) return false;
  const around = source.slice(
    Math.max(0, at - SECRET_CONTEXT_CHARS),
    at + word.length + SECRET_CONTEXT_CHARS,
  );
  return !redactor.redactSync(around).includes(word);
}

/** Characters `indexOfInSlices` searches between two turns of the event loop. */
const SEARCH_SLICE_CHARS = 4 * 1024 * 1024;

/** `text.indexOf(word)`, searched 4 M characters at a time with the event loop's turns between. */
async function indexOfInSlices(text: string, word: string): Promise<number> {
  const yieldSometimes = eventLoopSlices(20);
  for (let from = 0; from < text.length; from += SEARCH_SLICE_CHARS) {
    // A match starting in this slice may run past its end: the search reads that far, no further.
    const found = text.slice(from, from + SEARCH_SLICE_CHARS + word.length - 1).indexOf(word);
    if (found !== -1) return from + found;
    await yieldSometimes();
  }
  return -1;
}

/** A frozen copy of the context, so a preview cannot change what the caller keeps. */
function pastOnly(context: PreviewContext | undefined): PreviewContext {
  const history = (context?.history ?? []).map((step) => Object.freeze({ ...step }));
  return Object.freeze({
    ...(context?.task === undefined ? {} : { task: context.task }),
    history: Object.freeze(history),
  });
}

/** True when the result has nothing to store (an empty text is not encoded to find out). */
function isEmpty(content: OffloadContent): boolean {
  return content.kind === 'text' ? content.text.length === 0 : content.bytes.byteLength === 0;
}

/** The text entry as it will be (its counts made when it was encoded), to measure the observation before writing it. */
function provisionalEntry(
  name: string,
  encoded: EncodedText,
  ttlMs: number | null | undefined,
): ObservationInput['entry'] {
  return {
    id: '0'.repeat(16),
    name,
    kind: 'text',
    bytes: encoded.bytes.byteLength,
    chars: encoded.chars,
    lines: encoded.lines,
    // Measured at epoch 0: the lifetime's text has the length it will have.
    expiresAt: ttlMs ?? null,
    updatedAt: 0,
    pinned: false,
  };
}
