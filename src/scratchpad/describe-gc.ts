import { formatBytes, formatCount } from '../core/format.js';
import type { GcResult } from './types.js';

/**
 * What a `gc` freed, in lines for people (the CLI, the scheduler's run log): the entries it removed, then one
 * line of totals (entries, contents released after their readers' wait, files deleted, partial writes swept) and,
 * when the store still keeps content for readers, how much and when a later `gc` can free it, and what it keeps
 * until its search index rows are removed.
 */
export function describeGc(result: GcResult): string[] {
  const lines = result.removed.map(
    (item) => `removed ${item.session}/${item.name} (${formatBytes(item.bytes)}, ${item.reason})`,
  );
  const parts = [`freed ${plural(result.removed.length, 'entry', 'entries')} (${formatBytes(result.bytes)})`];
  if (result.released.contents > 0) {
    parts.push(
      `released ${plural(result.released.contents, 'content', 'contents')} of replaced or deleted entries kept for readers (${formatBytes(result.released.bytes)})`,
    );
  }
  if (result.files.count > 0) {
    parts.push(
      `deleted ${plural(result.files.count, 'file', 'files')} (${formatBytes(result.files.bytes)} on disk)`,
    );
  }
  parts.push(`swept ${plural(result.staging, 'abandoned partial write', 'abandoned partial writes')}`);
  lines.push(parts.join('; '));
  const { held } = result;
  if (held.contents > 0 && held.until !== null) {
    lines.push(
      `still kept for readers: ${plural(held.contents, 'content', 'contents')} of replaced or deleted entries (${formatBytes(held.bytes)}) until ${new Date(held.until).toISOString().replace(/\.\d+Z$/, 'Z')}; a gc after that frees it`,
    );
  }
  const { unindexing } = result;
  if (unindexing.contents > 0) {
    lines.push(
      `waiting for their search index rows to be removed: ${plural(unindexing.contents, 'content', 'contents')} of replaced or deleted entries (${formatBytes(unindexing.bytes)}); a gc after that frees ${unindexing.contents === 1 ? 'it' : 'them'}`,
    );
  }
  return lines;
}

function plural(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}
