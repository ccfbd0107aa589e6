import { type CompiledPattern, compilePattern, findMatch } from '../../core/regex.js';
import { literalAlternatives, requiredLiterals } from '../../core/required-literals.js';
import { sampleByteCounts } from './byte-counts.js';
import { foldableAscii, RegionCopy, SimdNeedle, simdAvailable } from './simd-needle.js';

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
 * over the region. Ignoring case, literal alternatives that fold within ASCII are found by `SimdNeedle`
 * (WebAssembly SIMD), without RE2; other patterns ignoring case give no literal for letters (RE2's case-folded
 * scan is faster than folding the region in JavaScript, decision 002). Pure and synchronous; it runs in the grep
 * worker.
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
  #probes: Probe[] = [];

  constructor(source: string, ignoreCase: boolean) {
    this.source = source;
    this.ignoreCase = ignoreCase;
    const pattern = compilePattern(source, { ignoreCase });
    this.pattern = pattern;
    const lineLocal = pattern.kind === 'literal' || pattern.lineLocal;
    const alternatives =
      pattern.kind === 'literal'
        ? [source]
        : lineLocal
          ? ignoreCase
            ? foldedAlternatives(source)
            : literalAlternatives(source)
          : undefined;
    const literals =
      pattern.kind === 'regex' && lineLocal && !alternatives
        ? requiredLiterals(source, ignoreCase)
        : undefined;
    const needles = alternatives ?? literals ?? [];
    this.exact = alternatives !== undefined;
    this.#folded = ignoreCase && alternatives !== undefined;
    this.needles = needles.every((literal) => !literal.includes('\n'))
      ? needles.map((literal) => Buffer.from(literal, 'utf8'))
      : [];
  }

  /** The matching lines of the region `buffer[0, query.end)`. */
  find(buffer: Buffer, query: RegionQuery): RegionMatches {
    return this.needles.length > 0 ? this.#findByLiterals(buffer, query) : this.#findByPattern(buffer, query);
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

/**
 * Ignoring case, the strings of `literalAlternatives` when each is ASCII and folds to ASCII only
 * (`foldableAscii`) and WebAssembly SIMD runs here: `SimdNeedle` finds them. Otherwise undefined (RE2).
 */
function foldedAlternatives(source: string): string[] | undefined {
  if (!simdAvailable()) return undefined;
  const alternatives = literalAlternatives(source);
  return alternatives?.every(foldableAscii) ? alternatives : undefined;
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
