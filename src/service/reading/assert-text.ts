import type { EntryRecord } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import { formatBytes } from '../../core/format.js';

/** `NOT_TEXT` unless the entry is text (lines, grep and edit need characters). */
export function assertText(record: EntryRecord, action: string): void {
  if (record.kind !== 'text') {
    throw new ScratchpadError(
      'NOT_TEXT',
      `Cannot ${action} "${record.name}": it is a binary entry (${formatBytes(record.bytes)}).`,
      {
        hint: 'Read binary entries by bytes (head, tail, range, offset) as base64 or hex.',
        details: { name: record.name, kind: record.kind },
      },
    );
  }
}
