import { formatBytes } from '../core/format.js';
import type { IndexingProgress } from '../stores/driver.js';

/**
 * One line on a terminal's stderr that says how much of a session is indexed for search, rewritten in place as
 * indexing goes on and erased when it ends (so stdout's answer stands alone). Prints nothing when stderr is not a
 * terminal: pipes and logs get the answer only.
 */
export interface IndexingProgressLine {
  /** Shows `progress` (pass it as `onProgress`). */
  update(progress: IndexingProgress): void;
  /** Erases the line, if one was shown. */
  end(): void;
}

/** The progress line for `stderr`, silent unless it is a terminal. */
export function indexingProgressLine(stderr: NodeJS.WritableStream): IndexingProgressLine {
  const terminal = (stderr as { isTTY?: boolean }).isTTY === true;
  let shown = false;
  return {
    update(progress) {
      // A session indexed already needs no line: the answer follows at once.
      if (!terminal || (!shown && progress.done >= progress.total)) return;
      const percent = progress.total === 0 ? 100 : Math.floor((progress.done / progress.total) * 100);
      stderr.write(
        `\r\x1b[2Kindexing for search: ${percent}% (${formatBytes(progress.done)} of ${formatBytes(progress.total)}), Ctrl-C to stop`,
      );
      shown = true;
    },
    end() {
      if (shown) stderr.write('\r\x1b[2K');
      shown = false;
    },
  };
}
