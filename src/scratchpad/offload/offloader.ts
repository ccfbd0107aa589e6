import type { Entry } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import type { JsonObject, JsonValue } from '../../core/json.js';
import { describeLifetime } from '../../core/lifetime.js';
import type { Redactor } from '../../core/redaction/redactor.js';
import { codePointLength } from '../../core/utf8.js';
import type { PreviewContext, PreviewText } from '../previews/preview-builder.js';
import { buildPreview, PREVIEW_BUILDERS } from '../previews/preview-registry.js';
import type { SessionScratchpad } from '../scratchpad.js';
import { loadTokenizer } from '../tokens/named-tokenizers.js';
import { renderDefaultObservation } from './default-observation.js';
import { findDuplicateEntry } from './duplicate-entry.js';
import { EntryNamer } from './entry-namer.js';
import { renderMetnosObservation } from './metnos-observation.js';
import { renderNamedObservation } from './named-observation.js';
import type { ObservationInput, RenderedObservation } from './observation-input.js';
import { measureContent, type OffloadContent, toOffloadContent } from './offload-content.js';
import type { ObservationFormat, OffloadPolicy } from './offload-policy.js';
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

/** Decides per tool result whether it stays inline or is stored whole and replaced by a synthetic observation. */
export interface Offloader {
  readonly policy: OffloadPolicy;
  process(request: OffloadRequest): Promise<OffloadOutcome>;
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
      if (content === undefined || content.bytes.byteLength === 0) return inline('empty');
      const threshold = policy.thresholdFor(tool);
      const tokenizer = policy.measure === 'tokens' ? await loadTokenizer(policy.tokenizer) : undefined;
      if (
        content.kind === 'text' &&
        measureContent(content, policy.measure, tokenizer, threshold) <= threshold
      ) {
        return inline('below-threshold', content);
      }
      const builder = policy.previewFor(tool);
      const redactor = session.scratchpad.redactor;
      const built = redactPreview(
        redactor,
        buildPreview(builder, {
          kind: content.kind,
          text: content.text,
          bytes: content.bytes,
          ...(content.json === undefined ? {} : { json: content.json }),
          context: pastOnly(request.context),
        }),
      );
      let preview = built;
      let summary: SummaryOutcome | undefined;
      if (policy.summarize && wantsSummary(policy.summarize, content.kind, content.bytes.byteLength)) {
        // The summarizer is a model too: it gets the output as redacted as what the model sees, and its answer is
        // redacted again (it may repeat a secret the redactor's patterns would catch).
        const sent = redactor.enabled ? await redactor.redact(content.text) : content.text;
        ({ preview, outcome: summary } = await summaryPreview(
          policy.summarize,
          sent,
          built,
          request.context?.task,
        ));
        preview = redactPreview(redactor, preview);
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
      if (policy.minSavings > 0 && content.kind === 'text') {
        const provisional = render(provisionalEntry(await namer.peek(tool), content, policy.ttlMs));
        if (provisional.text.length > (1 - policy.minSavings) * content.inlineText.length) {
          return inline('no-savings', content);
        }
      }
      const source = tool.length > MAX_SOURCE_CHARS ? tool.slice(0, MAX_SOURCE_CHARS) : tool;
      const turn = request.turn ?? null;
      const entry =
        (await reuse(session, policy, { tool, source, turn, content })) ??
        (
          await namer.create(tool, content.kind === 'text' ? content.text : content.bytes, {
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

/** The preview with its secrets redacted (its text and its suggested search). */
function redactPreview(redactor: Redactor, preview: PreviewText): PreviewText {
  if (!redactor.enabled) return preview;
  return {
    ...preview,
    text: redactor.redactSync(preview.text),
    ...(preview.searchExample === undefined
      ? {}
      : { searchExample: redactor.redactSync(preview.searchExample) }),
  };
}

/** A frozen copy of the context, so a preview cannot change what the caller keeps. */
function pastOnly(context: PreviewContext | undefined): PreviewContext {
  const history = (context?.history ?? []).map((step) => Object.freeze({ ...step }));
  return Object.freeze({
    ...(context?.task === undefined ? {} : { task: context.task }),
    history: Object.freeze(history),
  });
}

/** The entry as it will be, to measure the observation before writing it. */
function provisionalEntry(
  name: string,
  content: OffloadContent,
  ttlMs: number | null | undefined,
): ObservationInput['entry'] {
  let newlines = 0;
  for (let index = content.text.indexOf('\n'); index !== -1; index = content.text.indexOf('\n', index + 1))
    newlines++;
  const lines = content.text.length === 0 ? 0 : newlines + (content.text.endsWith('\n') ? 0 : 1);
  return {
    id: '0'.repeat(16),
    name,
    kind: content.kind,
    bytes: content.bytes.byteLength,
    chars: codePointLength(content.text),
    lines,
    // Measured at epoch 0: the lifetime's text has the length it will have.
    expiresAt: ttlMs ?? null,
    updatedAt: 0,
    pinned: false,
  };
}
