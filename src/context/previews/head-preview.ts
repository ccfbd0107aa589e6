import { Buffer } from 'node:buffer';
import { decodeUtf8, utf8SafeCut } from '../../core/utf8.js';

/** Options for {@link headPreview}. */
export interface HeadPreviewOptions {
  /** Bytes of UTF-8 kept from the start (default 2,000, as in seed 004). */
  bytes?: number;
}

/** Seed 004's preview: the first 2,000 bytes of the text, cut back to a whole character. */
export function headPreview(text: string, options: HeadPreviewOptions = {}): string {
  const limit = options.bytes ?? 2000;
  // Each UTF-16 unit encodes to at least one byte, so `limit` units cover `limit` bytes.
  let prefix = text.slice(0, limit);
  const last = prefix.charCodeAt(prefix.length - 1);
  if (prefix.length < text.length && last >= 0xd800 && last <= 0xdbff) prefix = prefix.slice(0, -1);
  const bytes = Buffer.from(prefix, 'utf8');
  if (bytes.byteLength <= limit) return prefix;
  return decodeUtf8(bytes, 0, utf8SafeCut(bytes, limit));
}
