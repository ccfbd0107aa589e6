import { formatBytes, formatCount } from '../core/format.js';
import type { GcResult } from './types.js';

/**
 * What a `gc` did, in lines for people (the CLI, the scheduler's run log): the entries it removed, then what was
 * deleted now (the entries, with their content unless the store keeps it for readers; contents released after
 * their readers' wait; files; abandoned partial writes), then, apart, what stays on disk and a later `gc` frees:
 * content kept for readers (this gc's removals included, on a store that keeps them) and content waiting for its
 * search index rows to be removed. Nothing is called freed before it has left the store.
 */
export function describeGc(result: GcResult): string[] {
  const lines = result.removed.map(
    (item) => `removed ${item.session}/${item.name} (${formatBytes(item.bytes)}, ${item.reason})`,
  );
  const entries = plural(result.removed.length, 'entry', 'entries');
  const its = result.removed.length === 1 ? 'its' : 'their';
  const parts = [
    result.removed.length === 0
      ? 'deleted now: 0 entries'
      : result.contentKept
        ? `deleted now: ${entries} (${its} ${formatBytes(result.bytes)} of content stays on disk for readers, below)`
        : `deleted now: ${entries} with ${its} content (${formatBytes(result.bytes)})`,
  ];
  if (result.released.contents > 0) {
    parts.push(
      `${plural(result.released.contents, 'content', 'contents')} of replaced or deleted entries kept for readers until now (${formatBytes(result.released.bytes)})`,
    );
  }
  if (result.files.count > 0) {
    parts.push(`${plural(result.files.count, 'file', 'files')} (${formatBytes(result.files.bytes)} on disk)`);
  }
  parts.push(plural(result.staging, 'abandoned partial write', 'abandoned partial writes'));
  lines.push(parts.join('; '));
  const { held } = result;
  if (held.contents > 0 && held.until !== null) {
    lines.push(
      `freed later: ${plural(held.contents, 'content', 'contents')} of replaced or deleted entries (${formatBytes(held.bytes)}), kept for readers until ${new Date(held.until).toISOString().replace(/\.\d+Z$/, 'Z')}; a gc after that frees ${held.contents === 1 ? 'it' : 'them'}`,
    );
  }
  const { unindexing } = result;
  if (unindexing.contents > 0) {
    lines.push(
      `freed later: ${plural(unindexing.contents, 'content', 'contents')} of replaced or deleted entries (${formatBytes(unindexing.bytes)}), waiting for their search index rows to be removed; a gc after that frees ${unindexing.contents === 1 ? 'it' : 'them'}`,
    );
  }
  return lines;
}

function plural(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}
