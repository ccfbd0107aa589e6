import { formatBytes } from '../../core/format.js';
import type { IndexingProgress } from '../../stores/driver.js';

/** The one line every surface prints while a session's full-text index is still being built. */
export function indexingMessage(progress: IndexingProgress): string {
  const percent = progress.total === 0 ? 100 : Math.floor((progress.done / progress.total) * 100);
  return (
    `Still indexing this session for search (${percent}%: ${formatBytes(progress.done)} of ` +
    `${formatBytes(progress.total)}); these results come from the indexed part, search again later for the rest.`
  );
}
