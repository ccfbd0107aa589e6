import { sampleByteCounts } from '../../core/byte-counts.js';
import { type CompiledPattern, compilePattern, findMatch } from '../../core/regex.js';
import { literalAlternatives, requiredLiterals } from '../../core/required-literals.js';
import { foldableAscii, RegionCopy, SimdNeedle, simdAvailable } from '../../core/simd-needle.js';

/** What {@link LineSearcher.find} is asked for. */
export interface RegionQuery {
  /** The region is `buffer[0, end)`; it starts at a line start (or inside a line cut into windows). */
  end: number;
  /** The region ends the entry: an empty match at its very end still belongs to its last line. */
  last: boolean;
  /** Where the first match starts is reported for the first `exact` matching lines; later ones are counted. */
  exact: number;
  /** Stop after this many matching lines. */
  limit: number;
}

/** The matching lines of a region. */
export interface RegionMatches {
  /** Byte offsets where the first match starts, on each of the first `exact` matching lines, in order. */
  at: number[];
  /** Matching lines after those (all of them, or up to the limit). */
  more: number;
}

/**
 * Finds the lines of a region that match a grep pattern, one result per line. A plain literal, and a pattern that
 * is only alternative literals (`literalAlternatives`, e.g. `timeout|declined`), are searched with
 * `Buffer.indexOf` and no RE2 at all; a line-local RE2 pattern with required literals (`requiredLiterals`) is
 * searched by scanning for the literals and running RE2 on the lines that hold one only; other patterns run RE2
 * over the region. Ignoring case, ASCII needles (alternatives or required literals) are found by `SimdNeedle`
 * (WebAssembly SIMD) folding ASCII case, since the linear engine's case-folded scan runs at about 16 MB/s
 * (decision 014); a region holding K or ſ, which `k` and `s` also fold to, is searched by the pattern. Pure and
 * synchronous; it runs in the grep worker.
 */
export class LineSearcher {
  readonly source: string;
  readonly ignoreCase: boolean;
  readonly pattern: CompiledPattern;
  /** Byte strings one of which every match contains; empty when there is no prefilter. */
  readonly needles: Buffer[];
  /** The needles are every string the pattern matches: no RE2 on the lines at all. */
  readonly exact: boolean;
  /** The needles are found ignoring case (`SimdNeedle`). */
  readonly #folded: boolean;
  /**
   * A needle has `k` or `s`, which fold to non-ASCII letters too (K U+212A, ſ U+017F): ASCII folding finds every
   * match only in a region without those two, so a region holding one is searched by the pattern.
   */
  readonly #unicodeFolds: boolean;
  #probes: Probe[] = [];

  constructor(source: string, ignoreCase: boolean) {
    this.source = source;
    this.ignoreCase = ignoreCase;
    const pattern = compilePattern(source, { ignoreCase });
    this.pattern = pattern;
    const lineLocal = pattern.kind === 'literal' || pattern.lineLocal;
    const alternatives =
      pattern.kind === 'literal' ? [source] : lineLocal ? literalAlternatives(source) : undefined;
    // Ignoring case, what every case-sensitive match contains, some case variant of it is in every match.
    const literals =
      pattern.kind === 'regex' && lineLocal && !alternatives ? requiredLiterals(source, false) : undefined;
    let needles = alternatives ?? literals ?? [];
    // Ignoring case, needles are found by WebAssembly SIMD folding ASCII letters; without it (or for needles that
    // are not ASCII) the pattern runs over the region.
    if (ignoreCase && !(simdAvailable() && needles.every(foldableAscii))) needles = [];
    if (needles.some((literal) => literal.includes('\n'))) needles = [];
    this.exact = alternatives !== undefined && needles.length > 0;
    this.#folded = ignoreCase && needles.length > 0;
    this.#unicodeFolds = this.#folded && needles.some((literal) => /[ks]/i.test(literal));
    this.needles = needles.map((literal) => Buffer.from(literal, 'utf8'));
  }

  /** The matching lines of the region `buffer[0, query.end)`. */
  find(buffer: Buffer, query: RegionQuery): RegionMatches {
    const byLiterals =
      this.needles.length > 0 && !(this.#unicodeFolds && holdsUnicodeFoldOfKS(buffer, query.end));
    return byLiterals ? this.#findByLiterals(buffer, query) : this.#findByPattern(buffer, query);
  }

  #findByPattern(buffer: Buffer, { end, last, exact, limit }: RegionQuery): RegionMatches {
    const found: number[] = [];
    let more = 0;
    // On the last line of the entry an empty match at its very end (`$`) still belongs to that line.
    const matchLimit = last ? end + 1 : end;
    let position = 0;
    while (position < end && found.length + more < limit) {
      const at = findMatch(this.pattern, buffer, position, matchLimit);
      if (at === -1) break;
      if (found.length < exact) found.push(at);
      else more++;
      position = lineEndAt(buffer, at, end) + 1;
    }
    return { at: found, more };
  }

  #findByLiterals(buffer: Buffer, { end, exact, limit }: RegionQuery): RegionMatches {
    const pattern = this.pattern;
    const needles = this.needles;
    if (this.#probes.length === 0) {
      // One needle, case kept: memchr from its rarest byte (`NeedleProbe`) beat the SIMD loop on the bench log
      // (24-26 ms against 30-43 per 256 MiB); several needles, or case ignored: SIMD (decision 002).
      // The needles pick their rarest bytes from one count of the first region, and share one copy of a region
      // that is not in WebAssembly memory already.
      const simd = simdAvailable() && (this.#folded || needles.length > 1);
      const counts = sampleByteCounts(buffer, this.#folded);
      const copies = simd ? new RegionCopy() : undefined;
      this.#probes = needles.map((needle) =>
        copies ? new SimdNeedle(needle, counts, this.#folded, copies) : new NeedleProbe(needle, counts),
      );
    }
    for (const probe of this.#probes) probe.startRegion?.();
    // The next occurrence of each needle at or after the position it was searched from (-1: none left).
    const next = needles.map(() => -2);
    const found: number[] = [];
    let more = 0;
    let position = 0;
    // One needle that is the whole match: past the exact lines, WebAssembly counts the lines without a call each.
    const counter = needles.length === 1 && this.exact ? this.#probes[0] : undefined;
    while (position < end && found.length + more < limit) {
      const counted =
        found.length >= exact
          ? counter?.countLines?.(buffer, position, end, limit - found.length - more)
          : undefined;
      if (counted) {
        more += counted.lines;
        position = counted.stoppedAt;
        next[0] = -2;
        if (position >= end || found.length + more >= limit) break;
      }
      let hit = -1;
      for (let index = 0; index < needles.length; index++) {
        let at = next[index] as number;
        if (at !== -1 && at < position) {
          at = this.#probes[index]?.next(buffer, position, end) ?? -1;
          next[index] = at;
        }
        if (at !== -1 && (hit === -1 || at < hit)) hit = at;
      }
      if (hit === -1) break;
      const lineEnd = lineEndAt(buffer, hit, end);
      if (this.exact || pattern.kind !== 'regex') {
        // The first needle on the line is where the leftmost match starts.
        if (found.length < exact) found.push(hit);
        else more++;
        position = lineEnd + 1;
        continue;
      }
      const regex = pattern.regex;
      const lineStart = hit === 0 ? 0 : Math.max(position, buffer.lastIndexOf(10, hit - 1) + 1);
      const line = buffer.subarray(lineStart, lineEnd);
      const match = regex.find(line);
      if (match !== undefined) {
        if (found.length < exact) found.push(lineStart + match.start);
        else more++;
      }
      position = lineEnd + 1;
    }
    return { at: found, more };
  }
}

/** Where the line holding byte `at` ends: its `\n`, or the region's end. */
export function lineEndAt(buffer: Buffer, at: number, end: number): number {
  const newline = buffer.indexOf(10, at);
  return newline === -1 || newline >= end ? end : newline;
}

const KELVIN_SIGN = Buffer.from('\u212a', 'utf8');
const LONG_S = Buffer.from('\u017f', 'utf8');

/** Whether `buffer[0, end)` holds K (U+212A) or ſ (U+017F), the non-ASCII letters `k` and `s` fold to. */
function holdsUnicodeFoldOfKS(buffer: Buffer, end: number): boolean {
  const region = end === buffer.byteLength ? buffer : buffer.subarray(0, end);
  return region.indexOf(KELVIN_SIGN) !== -1 || region.indexOf(LONG_S) !== -1;
}

/** Finds one needle in a region. */
interface Probe {
  /** Where the needle next starts at or after `from` (and before `end`), or -1. */
  next(buffer: Buffer, from: number, end: number): number;
  /** Called before a new region is searched. */
  startRegion?(): void;
  /** Counts matching lines from `from` on (`SimdNeedle.countLines`). */
  countLines?(
    buffer: Buffer,
    from: number,
    end: number,
    maxLines: number,
  ): { lines: number; stoppedAt: number } | undefined;
}

/**
 * Finds one needle fast: `Buffer.indexOf` jumps with `memchr` on the first byte of what it searches, so it
 * searches the needle from its rarest byte (as counted in a sample of the text) and checks the bytes before it.
 */
class NeedleProbe implements Probe {
  readonly #needle: Buffer;
  readonly #offset: number;
  readonly #probe: Buffer;

  /** @param counts how often each byte occurs in a sample of the text (`sampleByteCounts`, case kept). */
  constructor(needle: Buffer, counts: Uint32Array) {
    let rarest = 0;
    for (let index = 1; index < needle.byteLength; index++) {
      if ((counts[needle[index] as number] as number) < (counts[needle[rarest] as number] as number))
        rarest = index;
    }
    this.#needle = needle;
    this.#offset = rarest;
    this.#probe = needle.subarray(rarest);
  }

  /** Where the needle next starts at or after `from` (and before `end`), or -1. */
  next(buffer: Buffer, from: number, end: number): number {
    const needle = this.#needle;
    const offset = this.#offset;
    let at = from + offset;
    for (;;) {
      at = buffer.indexOf(this.#probe, at);
      if (at === -1) return -1;
      const start = at - offset;
      if (start >= end) return -1;
      if (offset === 0 || buffer.compare(needle, 0, offset, start, at) === 0) return start;
      at++;
    }
  }
}
