import type { EntryRecord } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import { formatBytes } from '../../core/format.js';
import { decodeUtf8 } from '../../core/utf8.js';
import { assertText } from '../reading/assert-text.js';
import { ChunkCursor } from '../reading/chunk-cursor.js';
import type { ServiceContext } from '../service-context.js';
import type { EditOptions, EditResult } from '../types.js';
import { replaceContent } from './content-commits.js';
import { validateIfVersion } from './write-options.js';

/** `INVALID_ARGUMENT` unless `oldText` is a non-empty string, `newText` a string and `ifVersion` valid. */
export function validateEditOptions(options: EditOptions): void {
  validateIfVersion(options?.ifVersion);
  if (typeof options.oldText !== 'string' || options.oldText.length === 0) {
    throw new ScratchpadError('INVALID_ARGUMENT', 'oldText must be a non-empty string.', {
      hint: 'To replace the whole content, write the entry instead.',
    });
  }
  if (typeof options.newText !== 'string') {
    throw new ScratchpadError(
      'INVALID_ARGUMENT',
      'newText must be a string (use "" to delete the old text).',
    );
  }
}

/**
 * One attempt at an edit of `current` (the live, checked record): reads it whole, replaces the text and commits
 * with compare-and-set, keeping the entry's remaining lifetime; `undefined` when another writer won the race.
 */
export async function editEntry(
  context: ServiceContext,
  current: EntryRecord,
  options: EditOptions,
): Promise<EditResult | undefined> {
  assertText(current, 'edit');
  if (current.bytes > context.maxEditBytes) {
    throw new ScratchpadError(
      'CONTENT_TOO_LARGE',
      `"${current.name}" is ${formatBytes(current.bytes)}; edit works on entries up to ${formatBytes(context.maxEditBytes)}.`,
      { hint: 'Read the part you need and write it to a new entry, then edit that.' },
    );
  }
  const text = decodeUtf8(await new ChunkCursor(context.driver, current).bytes(0, current.bytes));
  const { updated, positions, lines } = applyEdit(text, options, current.name);
  const stored = await context.storeRedactor.redact(updated);
  const remaining = current.expiresAt === null ? null : Math.max(1, current.expiresAt - context.now());
  const outcome = await replaceContent(
    context,
    current.session,
    current.name,
    { current, stored: current },
    stored,
    {
      ttlMs: remaining,
    },
  );
  return outcome && { entry: outcome.entry, replacements: positions.length, lines };
}

/** `text` with `oldText` replaced: `EDIT_NO_MATCH` when it does not occur, `EDIT_AMBIGUOUS` when it occurs more than once without `replaceAll`. */
function applyEdit(
  text: string,
  options: EditOptions,
  name: string,
): { updated: string; positions: number[]; lines: number[] } {
  const positions = occurrences(text, options.oldText);
  if (positions.length === 0) {
    throw new ScratchpadError('EDIT_NO_MATCH', `The text to replace does not occur in "${name}".`, {
      hint: 'Read the entry and copy the exact text, including whitespace and line breaks.',
      details: { name },
    });
  }
  const lines = linesOf(text, positions);
  if (positions.length > 1 && !options.replaceAll) {
    throw new ScratchpadError(
      'EDIT_AMBIGUOUS',
      `The text to replace occurs ${positions.length} times in "${name}" (lines ${lines.slice(0, 20).join(', ')}).`,
      { hint: 'Include more surrounding text so it occurs once, or set replaceAll.', details: { lines } },
    );
  }
  const updated = options.replaceAll
    ? text.split(options.oldText).join(options.newText)
    : text.slice(0, positions[0]) +
      options.newText +
      text.slice((positions[0] as number) + options.oldText.length);
  return { updated, positions, lines };
}

/** Start offsets of every non-overlapping occurrence of `needle` in `text`. */
export function occurrences(text: string, needle: string): number[] {
  const positions: number[] = [];
  let at = text.indexOf(needle);
  while (at !== -1) {
    positions.push(at);
    at = text.indexOf(needle, at + needle.length);
  }
  return positions;
}

/** 1-based line of each (ascending) position. */
export function linesOf(text: string, positions: number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let at = text.indexOf('\n');
  for (const position of positions) {
    while (at !== -1 && at < position) {
      line++;
      at = text.indexOf('\n', at + 1);
    }
    lines.push(line);
  }
  return lines;
}
