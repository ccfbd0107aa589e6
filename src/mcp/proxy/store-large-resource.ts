import { ErrorCode, McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { Offloader } from '../../context/offload/offloader.js';
import { formatBytes } from '../../core/format.js';
import type { SessionScratchpad } from '../../service/session-scratchpad.js';
import { entryUri } from '../entry-uri.js';

/**
 * An upstream resource read whose contents would not fit the reply: stored in the scratchpad and answered with
 * an error that names the stored entries and how to read them in slices. Smaller reads pass unchanged.
 */
export async function storeLargeResource(
  result: ReadResourceResult,
  uri: string,
  config: { offloader: Offloader; session: SessionScratchpad; maxReplyContentBytes: number },
): Promise<ReadResourceResult> {
  const size = result.contents.reduce(
    (total, item) =>
      total +
      ('text' in item && typeof item.text === 'string' ? Buffer.byteLength(item.text, 'utf8') : 0) +
      ('blob' in item && typeof item.blob === 'string' ? item.blob.length : 0),
    0,
  );
  if (size <= config.maxReplyContentBytes) return result;
  const stored: string[] = [];
  for (const item of result.contents) {
    const value =
      'text' in item && typeof item.text === 'string'
        ? item.text
        : Buffer.from('blob' in item && typeof item.blob === 'string' ? item.blob : '', 'base64');
    const outcome = await config.offloader.process({
      tool: 'resource',
      result: value,
      metadata: { uri: item.uri },
      ...(item.mimeType ? { mediaType: item.mimeType } : {}),
    });
    if (outcome.offloaded) stored.push(entryUri(config.session.id, outcome.entry.name));
  }
  throw new McpError(
    ErrorCode.InvalidParams,
    `The resource ${uri} is ${formatBytes(size)}, more than the ${formatBytes(config.maxReplyContentBytes)} one reply may carry. It was stored in the scratchpad as ${stored.join(', ')}: read it in slices, e.g. ${stored[0]}?offset=0&limit=100000 or ?lines=1:500.`,
  );
}
