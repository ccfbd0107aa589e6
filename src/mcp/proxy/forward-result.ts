import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { Entry } from '../../core/entry.js';
import { describeLifetime } from '../../core/lifetime.js';
import type { Redactor } from '../../core/redaction/redactor.js';
import type { Offloader } from '../../scratchpad/offload/offloader.js';
import type { SessionScratchpad } from '../../scratchpad/session-scratchpad.js';
import { saveResultAs } from '../../tools/wrap-tools.js';
import { entryUri } from '../entry-uri.js';
import { type OutputSchemaValidator, shrinkStructured } from './structured-preview.js';

/** What the forwarder needs from the proxy. */
export interface ResultForwarderConfig {
  session: SessionScratchpad;
  offloader: Offloader;
  /** Largest content the reply may carry: media and embedded blobs past it are stored instead of sent. */
  maxReplyContentBytes: number;
  validator: OutputSchemaValidator;
}

/** One upstream call whose result is forwarded. */
export interface ForwardedCall {
  tool: string;
  outputSchema?: object;
  /** The `scratchpad` argument: store the whole result under this name. */
  saveAs?: string;
}

/**
 * Forwards an upstream tool result, changing only what must not flood the context: the text (all text blocks
 * together) is offloaded by the policy and replaced by the observation plus a `resource_link` to the entry;
 * images, audio and embedded blobs pass through unless they would not fit the reply, embedded text resources
 * are offloaded like text; `resource_link`s, annotations, `_meta` and unknown blocks pass unchanged. A
 * `structuredContent` whose text was stored is cut to a preview that still conforms to the tool's
 * `outputSchema` (else sent whole when it fits, else dropped with an error that names the entry). Secrets in
 * the text, embedded text resources and structured content the model gets are redacted (`redaction.view`).
 */
export async function forwardToolResult(
  result: CallToolResult,
  call: ForwardedCall,
  config: ResultForwarderConfig,
): Promise<CallToolResult> {
  return redactResult(await forwardUnredacted(result, call, config), config.session.scratchpad.redactor);
}

/** The result as the model reads it: text blocks, embedded text and structured content redacted. */
async function redactResult(result: CallToolResult, redactor: Redactor): Promise<CallToolResult> {
  if (!redactor.enabled) return result;
  const content: ContentBlock[] = [];
  for (const block of result.content ?? []) {
    if (block.type === 'text') content.push({ ...block, text: await redactor.redact(block.text) });
    else if (block.type === 'resource' && 'text' in block.resource && typeof block.resource.text === 'string')
      content.push({
        ...block,
        resource: { ...block.resource, text: await redactor.redact(block.resource.text) },
      });
    else content.push(block);
  }
  return {
    ...result,
    content,
    ...(result.structuredContent === undefined
      ? {}
      : { structuredContent: await redactor.redactValue(result.structuredContent) }),
  };
}

async function forwardUnredacted(
  result: CallToolResult,
  call: ForwardedCall,
  config: ResultForwarderConfig,
): Promise<CallToolResult> {
  const blocks = result.content ?? [];
  const texts = blocks.filter(
    (block): block is Extract<ContentBlock, { type: 'text' }> => block.type === 'text',
  );
  const joined = texts.map((block) => block.text).join('\n');
  if (call.saveAs !== undefined) return saveWhole(result, joined, { ...call, saveAs: call.saveAs }, config);

  let textEntry: Entry | undefined;
  let textReplacement: ContentBlock[] = [];
  if (joined.length > 0) {
    const outcome = await config.offloader.process({ tool: call.tool, result: joined });
    if (outcome.offloaded) {
      textEntry = outcome.entry;
      textReplacement = [
        { type: 'text', text: outcome.text },
        linkTo(config.session, outcome.entry, call.tool),
      ];
    }
  }
  let budget = config.maxReplyContentBytes - byteLength(textEntry ? textReplacement : joined);
  const content: ContentBlock[] = [];
  let textPlaced = false;
  for (const block of blocks) {
    if (block.type === 'text') {
      if (!textEntry) content.push(block);
      else if (!textPlaced) content.push(...textReplacement);
      textPlaced = true;
    } else if (block.type === 'image' || block.type === 'audio') {
      if (block.data.length <= budget) {
        budget -= block.data.length;
        content.push(block);
      } else {
        content.push(...(await storeBinary(block.data, block.mimeType, block.type, call.tool, config)));
      }
    } else if (block.type === 'resource') {
      content.push(
        ...(await forwardEmbedded(
          block,
          call.tool,
          config,
          () => budget,
          (used) => (budget -= used),
        )),
      );
    } else {
      content.push(block);
    }
  }
  const forwarded: CallToolResult = { ...result, content };
  if (result.structuredContent === undefined) return forwarded;
  return withStructured(
    forwarded,
    result.structuredContent,
    { texts: texts.map((block) => block.text), joined, textEntry },
    call,
    config,
  );
}

/** The structured content to send next to the (possibly offloaded) text. */
async function withStructured(
  forwarded: CallToolResult,
  structured: Record<string, unknown>,
  text: { texts: string[]; joined: string; textEntry: Entry | undefined },
  call: ForwardedCall,
  config: ResultForwarderConfig,
): Promise<CallToolResult> {
  const inText = (value: unknown) =>
    typeof value === 'string' && (value === text.joined || text.texts.includes(value));
  let structuredEntry: Entry | undefined;
  let uncovered = false;
  shrinkStructured(structured, (original) => {
    if (!(text.textEntry && inText(original))) uncovered = true;
    return '';
  });
  if (uncovered) {
    const outcome = await config.offloader.process({ tool: call.tool, result: structured });
    if (!outcome.offloaded && !text.textEntry) return { ...forwarded, structuredContent: structured };
    if (outcome.offloaded) {
      structuredEntry = outcome.entry;
      if (!text.textEntry) {
        forwarded.content = [
          { type: 'text', text: outcome.text },
          linkTo(config.session, outcome.entry, call.tool),
          ...forwarded.content.filter((block) => block.type !== 'text'),
        ];
      }
    }
  }
  if (!text.textEntry && !structuredEntry) return { ...forwarded, structuredContent: structured };
  const stored = (original: unknown) => {
    const entry = text.textEntry && inText(original) ? text.textEntry : (structuredEntry ?? text.textEntry);
    return `the whole value is in the scratchpad entry "${entry?.name}" (${entryUri(config.session.id, entry?.name ?? '')})`;
  };
  return conformingStructured(
    forwarded,
    structured,
    shrinkStructured(structured, stored).value,
    call,
    config,
  );
}

/** The preview if it conforms to the output schema, else the original if it fits, else an error result. */
function conformingStructured(
  forwarded: CallToolResult,
  original: Record<string, unknown>,
  preview: unknown,
  call: ForwardedCall,
  config: ResultForwarderConfig,
): CallToolResult {
  if (!call.outputSchema || config.validator.conforms(call.outputSchema, preview)) {
    return { ...forwarded, structuredContent: preview as Record<string, unknown> };
  }
  if (byteLength(original) + byteLength(forwarded.content) <= config.maxReplyContentBytes) {
    return { ...forwarded, structuredContent: original };
  }
  return {
    ...forwarded,
    content: [
      ...forwarded.content,
      {
        type: 'text',
        text: `The structured result of ${call.tool} is too large to send and no shorter form conforms to its output schema; it is stored in the scratchpad (see above).`,
      },
    ],
    isError: true,
  };
}

/** The `scratchpad: NAME` path: the whole result (text, else structured JSON, else one medium) under NAME. */
async function saveWhole(
  result: CallToolResult,
  joined: string,
  call: ForwardedCall & { saveAs: string },
  config: ResultForwarderConfig,
): Promise<CallToolResult> {
  const media = (result.content ?? []).filter((block) => block.type === 'image' || block.type === 'audio');
  const value =
    joined.length > 0
      ? joined
      : result.structuredContent !== undefined
        ? result.structuredContent
        : media.length === 1 && 'data' in (media[0] as object)
          ? Buffer.from((media[0] as { data: string }).data, 'base64')
          : '';
  const saved = await saveResultAs(
    config.session,
    config.offloader.policy,
    call.tool,
    call.saveAs,
    value,
    {},
  );
  const content: ContentBlock[] = [{ type: 'text', text: saved.text }];
  if (saved.entry) {
    const entry = await config.session.get({ id: saved.entry.id });
    content.push(linkTo(config.session, entry, call.tool));
  }
  const forwarded: CallToolResult = { ...result, content, ...(saved.isError ? { isError: true } : {}) };
  if (result.structuredContent === undefined || !saved.entry) return forwarded;
  const name = saved.entry.name;
  const preview = shrinkStructured(
    result.structuredContent,
    () => `the whole value is in the scratchpad entry "${name}" (${entryUri(config.session.id, name)})`,
  ).value;
  return conformingStructured(forwarded, result.structuredContent, preview, call, config);
}

/** An embedded resource: kept when small, else stored and replaced by the observation and a link. */
async function forwardEmbedded(
  block: Extract<ContentBlock, { type: 'resource' }>,
  tool: string,
  config: ResultForwarderConfig,
  budget: () => number,
  use: (bytes: number) => void,
): Promise<ContentBlock[]> {
  const resource = block.resource;
  if ('blob' in resource && typeof resource.blob === 'string') {
    if (resource.blob.length <= budget()) {
      use(resource.blob.length);
      return [block];
    }
    return storeBinary(
      resource.blob,
      resource.mimeType ?? 'application/octet-stream',
      'resource',
      tool,
      config,
      resource.uri,
    );
  }
  const text = 'text' in resource && typeof resource.text === 'string' ? resource.text : '';
  const outcome = await config.offloader.process({
    tool,
    result: text,
    metadata: { uri: resource.uri },
    ...(resource.mimeType ? { mediaType: resource.mimeType } : {}),
  });
  if (!outcome.offloaded) {
    use(byteLength(text));
    return [block];
  }
  return [{ type: 'text', text: outcome.text }, linkTo(config.session, outcome.entry, tool)];
}

/** Stores base64 bytes as a binary entry; returns the observation and a link to it. */
async function storeBinary(
  base64: string,
  mimeType: string,
  what: string,
  tool: string,
  config: ResultForwarderConfig,
  uri?: string,
): Promise<ContentBlock[]> {
  const outcome = await config.offloader.process({
    tool,
    result: Buffer.from(base64, 'base64'),
    mediaType: mimeType,
    metadata: { [`${what}MimeType`]: mimeType, ...(uri ? { uri } : {}) },
  });
  if (!outcome.offloaded) return [{ type: 'text', text: outcome.text }];
  return [
    {
      type: 'text',
      text: `${outcome.text}\n(The ${what} was too large to send inline; it is stored as the entry above.)`,
    },
    linkTo(config.session, outcome.entry, tool),
  ];
}

function linkTo(session: SessionScratchpad, entry: Entry, tool: string): ContentBlock {
  return {
    type: 'resource_link',
    uri: entryUri(session.id, entry.name),
    name: entry.name,
    mimeType: entry.mediaType.split(';')[0] ?? 'application/octet-stream',
    size: entry.bytes,
    description: `The full result of ${tool}, stored in the scratchpad and ${describeLifetime(entry, entry.updatedAt)} (read slices with ?offset=&limit= or ?lines=A:B).`,
  };
}

function byteLength(value: unknown): number {
  return Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');
}
