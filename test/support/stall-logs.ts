/** Log text for the event-loop stall tests (grep and first search on every store). */

/** Lines per piece of {@link grepLogPieces} (54-byte lines, accents included). */
export const GREP_LOG_PIECE_LINES = 16_384;

/**
 * `pieces` pieces of 16,384 log lines (0.84 MiB each): line i (0-based) holds `ERROR` when i % 25 is 0, `Error`
 * when it is 1, and `timeout` or `declined` when i % 40 is 0 or 1.
 */
export async function* grepLogPieces(pieces: number): AsyncGenerator<Buffer> {
  for (let piece = 0; piece < pieces; piece++) {
    const lines: string[] = [];
    for (let index = 0; index < GREP_LOG_PIECE_LINES; index++) {
      const line = piece * GREP_LOG_PIECE_LINES + index;
      const level = line % 25 === 0 ? 'ERROR' : line % 25 === 1 ? 'Error' : 'INFO ';
      const what = line % 40 === 0 ? 'timeout ' : line % 40 === 1 ? 'declined' : 'ok      ';
      lines.push(`${level} ${what} req=${String(line).padStart(12, '0')} ${'é'.repeat(9)}…\n`);
    }
    yield Buffer.from(lines.join(''));
  }
}

/** `megabytes` of log-like lines, every line different, with `word` on every 1,000th line. */
export function searchLogText(megabytes: number, word: string): string {
  const lines: string[] = [];
  let bytes = 0;
  for (let line = 0; bytes < megabytes * 1_000_000; line += 1) {
    const text = `2026-11-24T12:${String(line % 60).padStart(2, '0')} worker-${line % 97} handled request ${line * 7919} in ${line % 503} ms${line % 1000 === 0 ? ` ${word}` : ''}`;
    lines.push(text);
    bytes += text.length + 1;
  }
  return lines.join('\n');
}
