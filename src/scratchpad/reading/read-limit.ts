import type { EntryRecord } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import { formatBytes, formatCount } from '../../core/format.js';
import type { SliceLocation } from '../../core/location.js';

/** How a slice's bytes are returned: text as UTF-8, binary as base64 or hex. */
export type ReadEncoding = 'utf8' | 'base64' | 'hex';

/** The length of `bytes` raw bytes once encoded for the caller. */
export function encodedLength(bytes: number, encoding: ReadEncoding): number {
  if (encoding === 'base64') return Math.ceil(bytes / 3) * 4;
  if (encoding === 'hex') return bytes * 2;
  return bytes;
}

/**
 * The refusal of a read whose result would be longer than `maxBytes`, raised before anything is read. It names the
 * entry's size and the largest slice that fits (`details.fit` in the entry's unit, from `details.start`; the slice
 * asked for ends at `details.end` and spans `details.lines`), so a tool can print its own call for it.
 */
export function sliceTooLarge(
  record: EntryRecord,
  location: SliceLocation,
  returnedBytes: number,
  maxBytes: number,
  encoding: ReadEncoding,
): ScratchpadError {
  const fit = sliceThatFits(record, maxBytes, encoding);
  const size =
    record.kind === 'text'
      ? `${formatBytes(record.bytes)} (${formatCount(record.chars)} chars)`
      : `${formatBytes(record.bytes)} of binary`;
  return new ScratchpadError(
    'CONTENT_TOO_LARGE',
    `"${record.name}" is ${size}; this slice would return ${formatBytes(returnedBytes)}, more than the ${formatBytes(maxBytes)} one reply may carry.`,
    {
      hint: `Read at most ${formatCount(fit)} ${location.unit} at a time (offset ${location.start}, limit ${fit}, then on from there), or find the lines you need with a regex first.`,
      details: {
        name: record.name,
        id: record.id,
        bytes: record.bytes,
        chars: record.chars,
        unit: location.unit,
        start: location.start,
        end: location.end,
        ...(location.lines ? { lines: location.lines } : {}),
        fit,
        maxBytes,
      },
    },
  );
}

/** The largest round slice (in chars for text, bytes for binary) that encodes to at most `maxBytes`, by the entry's average density. */
function sliceThatFits(record: EntryRecord, maxBytes: number, encoding: ReadEncoding): number {
  const raw =
    encoding === 'base64'
      ? Math.floor(maxBytes / 4) * 3
      : encoding === 'hex'
        ? Math.floor(maxBytes / 2)
        : maxBytes;
  const units =
    record.kind === 'text' && record.bytes > 0 ? Math.floor((raw * record.chars) / record.bytes) : raw;
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, units))) - 1);
  return Math.max(1, Math.floor(units / magnitude) * magnitude);
}
