import { Buffer } from 'node:buffer';
import type { Entry } from '../../core/entry.js';
import type { SessionScratchpad } from '../../service/scratchpad.js';
import { sampleEntry } from '../previews/entry-sample.js';
import type { PreviewBuilder, PreviewContext, PreviewText } from '../previews/preview-builder.js';
import { buildPreview } from '../previews/preview-registry.js';

/**
 * The preview of an entry already in the store, read without holding it: a text entry's builder gets a sample
 * read in windows (`sampleEntry`; its head as `text`); a binary entry gets seed 000's note from the entry's own
 * size and SHA-256. `seen` is the text the preview was made from (its sampled lines), to check its words against.
 */
export async function storedPreview(
  session: SessionScratchpad,
  entry: Entry,
  builder: PreviewBuilder,
  context: PreviewContext,
): Promise<{ preview: PreviewText; seen?: string }> {
  if (entry.kind === 'binary')
    return { preview: { text: `[BINARY: ${entry.bytes} bytes, sha256=${entry.sha256}]` } };
  const { sample, head } = await sampleEntry(session, entry);
  const preview = await buildPreview(builder, {
    kind: 'text',
    text: head,
    bytes: Buffer.from(head, 'utf8'),
    sample,
    context,
  });
  return { preview, seen: sample.complete ? head : sample.lines.map((line) => line.text).join('\n') };
}
