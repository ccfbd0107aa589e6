/**
 * Codex CLI-style truncation, the reference that stores nothing: outputs over the byte budget keep their first and
 * last halves (cut on UTF-8 boundaries) around `…N tokens truncated…`, with tokens estimated as bytes / 4.
 */
export function codexTruncate(text, budgetBytes = 10 * 1024) {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.byteLength <= budgetBytes) return text;
  let left = Math.floor(budgetBytes / 2);
  let right = bytes.byteLength - (budgetBytes - left);
  while (left > 0 && (bytes[left] & 0xc0) === 0x80) left--;
  while (right < bytes.byteLength && (bytes[right] & 0xc0) === 0x80) right++;
  const removed = Math.ceil((right - left) / 4);
  return `${bytes.toString('utf8', 0, left)}…${removed} tokens truncated…${bytes.toString('utf8', right)}`;
}
