import type { EntryRecord } from '../../core/entry.js';
import { ScratchpadError } from '../../core/errors.js';
import { formatBytes, formatCount } from '../../core/format.js';
import type { SliceLocation } from '../../core/location.js';
import type { ChunkCursor } from './chunk-cursor.js';

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
 * entry's size and the largest slice that fits (`fit`, from {@link sliceThatFits}: `details.fit` in the entry's
 * unit, from `details.start`; the slice asked for ends at `details.end` and spans `details.lines`), so a tool can
 * print its own call for it.
 */
export function sliceTooLarge(
  record: EntryRecord,
  location: SliceLocation,
  returnedBytes: number,
  maxBytes: number,
  fit: number,
): ScratchpadError {
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

/**
 * The largest round slice from `location.start` (chars of text, bytes of binary) whose result takes at most
 * `maxBytes`, counted on the entry's own bytes from `byteStart` (the byte where `location.start` is), not from its
 * average width: after 300,000 emoji (4 bytes each) a slice of the average width did not fit, and the suggestion
 * to read it suggested itself again. So reading `location.start` with this limit always fits. At least 1 (a
 * single character wider than `maxBytes` fits in no slice).
 */
export async function sliceThatFits(
  cursor: ChunkCursor,
  location: SliceLocation,
  byteStart: number,
  maxBytes: number,
  encoding: ReadEncoding,
): Promise<number> {
  const raw =
    encoding === 'base64'
      ? Math.floor(maxBytes / 4) * 3
      : encoding === 'hex'
        ? Math.floor(maxBytes / 2)
        : maxBytes;
  const record = cursor.record;
  if (record.kind !== 'text') return roundDown(raw);
  let end = byteStart + raw;
  if (end >= record.bytes) return roundDown(record.chars - location.start);
  // Back to the start of the character that byte `end` is in: that character does not fit whole.
  for (
    let back = 0;
    back < 3 && end > byteStart && isContinuationByte(await cursor.bytes(end, end + 1));
    back++
  )
    end -= 1;
  return roundDown((await cursor.describeByte(end)).char - location.start);
}

function isContinuationByte(byte: Buffer): boolean {
  return ((byte[0] ?? 0) & 0xc0) === 0x80;
}

/** `units` rounded down to two significant digits (70,000 rather than 70,213), at least 1. */
function roundDown(units: number): number {
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, units))) - 1);
  return Math.max(1, Math.floor(units / magnitude) * magnitude);
}
