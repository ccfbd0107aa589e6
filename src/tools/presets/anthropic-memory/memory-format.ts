/** The most lines `view` shows of one file (the SDK's `MAX_LINES`). */
export const MAX_LINES = 999999;

/** Line numbers are right-aligned to the width of {@link MAX_LINES}, then a tab. */
const LINE_NUMBER_WIDTH = String(MAX_LINES).length;

/**
 * The size `view` prints for every directory: what `stat` reports for a directory on ext4 (one 4 KiB block), the
 * filesystem the SDK's handler usually runs on. It does not depend on what the directory holds.
 */
export const DIRECTORY_SIZE = 4096;

/** A size as the SDK prints it: `0B`, `512B`, `1.5K`, `4K`, `2.3M` (binary units, one decimal unless whole). */
export function formatFileSize(bytes: number): string {
  if (bytes === 0) return '0B';
  const k = 1024;
  const sizes = ['B', 'K', 'M', 'G'];
  const index = Math.floor(Math.log(bytes) / Math.log(k));
  const size = bytes / k ** index;
  return (size % 1 === 0 ? size.toString() : size.toFixed(1)) + sizes[index];
}

/** One line of a numbered view: `     7\ttext`. */
export function numberedLine(lineNumber: number, text: string): string {
  return `${String(lineNumber).padStart(LINE_NUMBER_WIDTH, ' ')}\t${text}`;
}
