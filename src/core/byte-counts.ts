/** Bytes of a search's first region counted to choose each needle's rarest bytes. */
const SAMPLE_BYTES = 64 * 1024;

/**
 * How often each byte value occurs in the first 64 KiB of `sample`, ASCII letters counted in lower case when
 * `foldCase`: a search counts once, and each of its needles (`NeedleProbe`, `SimdNeedle`) picks its rarest bytes
 * from the same counts.
 */
export function sampleByteCounts(sample: Uint8Array, foldCase: boolean): Uint32Array {
  const counts = new Uint32Array(256);
  const sampled = Math.min(sample.byteLength, SAMPLE_BYTES);
  for (let index = 0; index < sampled; index++) {
    const byte = sample[index] as number;
    const counted = foldCase && isAsciiLetter(byte) ? byte | 0x20 : byte;
    counts[counted] = (counts[counted] as number) + 1;
  }
  return counts;
}

/** True for the bytes of `A`-`Z` and `a`-`z`. */
export function isAsciiLetter(byte: number): boolean {
  return (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a);
}
