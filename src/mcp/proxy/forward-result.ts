import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { saveResultAs } from '../../tools/wrap-tools.js';
import { entryLink } from './entry-link.js';
import {
  type StoredSoFar,
  type StructuredConfig,
  storableJson,
  withStructured,
} from './forward-structured.js';
import { redactUpstream } from './redact-upstream.js';
import { storedTextValue, type TextBlocks, textBlocksNote, textHolds } from './stored-text.js';
import { surelyInline } from './surely-inline.js';

/** What the forwarder needs from the proxy. */
export interface ResultForwarderConfig extends StructuredConfig {
  /** Largest content the reply may carry: media and embedded blobs past it are stored instead of sent. */
  maxReplyContentBytes: number;
}

/** One upstream call whose result is forwarded. */
export interface ForwardedCall {
  tool: string;
  outputSchema?: object;
  /** The `scratchpad` argument: store the whole result under this name. */
  saveAs?: string;
}

/**
 * Forwards an upstream tool result, changing only what must not flood the context, and storing whole whatever it
 * cuts: the text blocks are offloaded by the policy as one entry (one block as it is, several as the JSON array
 * of their texts: see {@link storedTextValue}) and replaced, where the first was, by the observation plus a
 * `resource_link` to the entry; images, audio and embedded blobs pass through unless they would not fit the
 * reply (then each is stored as its bytes), embedded text resources are offloaded like text; `resource_link`s,
 * annotations, `_meta` and unknown blocks pass. The `structuredContent` is cut to a preview whose every cut value
 * is stored and named (see {@link withStructured}). Then every string of the result the model gets is redacted
 * (`redaction.view`), at any depth: see {@link redactUpstream}.
 */
export async function forwardToolResult(
  result: CallToolResult,
  call: ForwardedCall,
  config: ResultForwarderConfig,
): Promise<CallToolResult> {
  return redactUpstream(await forwardUnredacted(result, call, config), config.session.scratchpad.redactor);
}

async function forwardUnredacted(
  result: CallToolResult,
  call: ForwardedCall,
  config: ResultForwarderConfig,
): Promise<CallToolResult> {
  const blocks = result.content ?? [];
  const text: TextBlocks = { texts: [], indexes: [] };
  blocks.forEach((block, index) => {
    if (block.type !== 'text') return;
    text.texts.push(block.text);
    text.indexes.push(index);
  });
  const hasText = text.texts.some((item) => item.length > 0);
  const stored: StoredSoFar = { text: undefined, structured: undefined };
  /** What replaces the text blocks (at the first one's place), when they were stored. */
  let textReplacement: ContentBlock[] = [];
  /** The block the `scratchpad: NAME` path saved (a lone medium), not forwarded. */
  let savedBlock: ContentBlock | undefined;

  if (call.saveAs !== undefined) {
    const media = blocks.filter((block) => block.type === 'image' || block.type === 'audio');
    const [value, holds, saved] = hasText
      ? [storedTextValue(text), textHolds(text, call.tool), 'text' as const]
      : result.structuredContent !== undefined
        ? [
            storableJson(result.structuredContent),
            `The structuredContent of ${call.tool}'s result, as JSON`,
            'structured' as const,
          ]
        : media.length === 1 && 'data' in (media[0] as object)
          ? [
              Buffer.from((media[0] as { data: string }).data, 'base64'),
              `The ${media[0]?.type} of ${call.tool}'s result (its bytes)`,
              'medium' as const,
            ]
          : ['', '', 'nothing' as const];
    if (saved === 'nothing') {
      textReplacement = [
        {
          type: 'text',
          text: `Nothing was saved to "${call.saveAs}": the result of ${call.tool} has no text, no structuredContent and not exactly one image or audio block. It follows as sent.`,
        },
      ];
    } else {
      const outcome = await saveResultAs(
        config.session,
        config.offloader.policy,
        call.tool,
        call.saveAs,
        value,
        {},
      );
      if (outcome.isError || !outcome.entry) {
        return {
          ...result,
          content: [{ type: 'text', text: outcome.text }],
          ...(outcome.isError ? { isError: true } : {}),
        };
      }
      const entry = await config.session.get({ id: outcome.entry.id });
      textReplacement = [
        { type: 'text', text: `${outcome.text}${saved === 'text' ? textBlocksNote(text) : ''}` },
        entryLink(config.session, entry, holds),
      ];
      if (saved === 'text') stored.text = { ...text, entry };
      if (saved === 'structured') stored.structured = entry;
      if (saved === 'medium') savedBlock = media[0];
    }
  } else if (
    hasText &&
    !(text.texts.length === 1 && surelyInline(config.offloader.policy, call.tool, text.texts[0] ?? ''))
  ) {
    const outcome = await config.offloader.process({ tool: call.tool, result: storedTextValue(text) });
    if (outcome.offloaded) {
      stored.text = { ...text, entry: outcome.entry };
      textReplacement = [
        { type: 'text', text: `${outcome.text}${textBlocksNote(text)}` },
        entryLink(config.session, outcome.entry, textHolds(text, call.tool)),
      ];
    }
  }

  const inlineText = stored.text ? textReplacement : text.texts;
  let budget = config.maxReplyContentBytes - byteLength(inlineText);
  const content: ContentBlock[] = stored.text ? [] : [...textReplacement];
  let textPlaced = false;
  for (const block of blocks) {
    if (block === savedBlock) continue;
    if (block.type === 'text') {
      if (!stored.text) content.push(block);
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
    stored,
    { tool: call.tool, ...(call.outputSchema ? { outputSchema: call.outputSchema } : {}) },
    config,
  );
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
  return [
    { type: 'text', text: outcome.text },
    entryLink(
      config.session,
      outcome.entry,
      `The text of the embedded resource ${resource.uri} of ${tool}'s result`,
    ),
  ];
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
    entryLink(config.session, outcome.entry, `The ${what} of ${tool}'s result (its bytes)`),
  ];
}

function byteLength(value: unknown): number {
  return Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');
}
