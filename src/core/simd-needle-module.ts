/**
 * The bytes of `SimdNeedle`'s WebAssembly module (simd-needle.ts), assembled here without a toolchain: two
 * functions, `find` and `count`, over an imported memory (`env.memory`), comparing two bytes of a needle at 16 or
 * 32 positions per step.
 */
export function moduleBytes(): Uint8Array {
  const I32 = 0x7f;
  const V128 = 0x7b;
  const simd = (op: number): number[] => [0xfd, ...leb(op)];
  const get = (index: number): number[] => [0x20, index];
  const set = (index: number): number[] => [0x21, index];
  const LOAD = simd(0x00);
  const SPLAT = simd(0x0f);
  const EQ = simd(0x23);
  const AND = simd(0x4e);
  const OR = simd(0x50);
  const BITMASK = simd(0x64);
  const BLOCK = [0x02, 0x40];
  const LOOP = [0x03, 0x40];
  const IF = [0x04, 0x40];
  const END = [0x0b];
  const BR = [0x0c];
  const BR_IF = [0x0d];
  const RETURN = [0x0f];
  const CONST = [0x41];
  const GE_U = [0x4f];
  const CTZ = [0x68];
  const ADD = [0x6a];
  const SHL = [0x74];
  const SUB = [0x6b];
  const I32_AND = [0x71];
  const I32_OR = [0x72];
  const EQZ = [0x45];
  const I32_EQ = [0x46];
  const NE = [0x47];
  const LT_U = [0x49];
  const GT_U = [0x4b];
  const LOAD8 = [0x2d, 0]; // i32.load8_u, then the offset
  const STORE = [0x36, 2, 0]; // i32.store, 4-byte aligned, offset 0
  // Arguments 3-6 (first, firstMask, second, secondMask) splatted into locals `base` to `base + 3`.
  const splats = (base: number) => [
    [3, 4, 5, 6].flatMap((argument, index) => [...get(argument), ...SPLAT, ...set(base + index)]),
  ];
  // The candidates from p (argument 0) on, below `limit` (argument 1), `distance` (argument 2) apart, with the
  // splats at `base`: the bitmask of the positions where (m[p] | firstMask) == first and
  // (m[p + distance] | secondMask) == second into local `mask`, over 16 positions, or 32 when the next 16 are
  // below `limit` too; how many were looked at into local `step`.
  const candidates = (base: number, mask: number, step: number) => {
    const [first, firstMask, second, secondMask] = [base, base + 1, base + 2, base + 3];
    const compare = (offset: number) => [
      [get(0), LOAD, [0, offset], get(firstMask), OR, get(first), EQ],
      [get(0), get(2), ADD, LOAD, [0, offset], get(secondMask), OR, get(second), EQ],
    ];
    return [
      ...compare(0),
      [AND, BITMASK, set(mask), CONST, [16], set(step)],
      [get(0), CONST, [16], ADD, get(1), LT_U, IF],
      ...compare(16),
      [AND, BITMASK, CONST, [16], SHL, get(mask), I32_OR, set(mask), CONST, [32], set(step), END],
    ];
  };
  // find(from, limit, distance, first, firstMask, second, secondMask) -> i32: the first p in the 16-byte steps
  // from `from` below `limit` (and the 15 bytes after each) where (m[p] | firstMask) == first and
  // (m[p + distance] | secondMask) == second, or -1. Locals 7-10: the splatted bytes and masks, 11: the bitmask,
  // 12: the step.
  const body = [
    ...splats(7),
    [BLOCK, LOOP],
    [get(0), get(1), GE_U, BR_IF, [1]], // p >= limit: leave the block
    ...candidates(7, 11, 12),
    [get(11), IF, get(0), get(11), CTZ, ADD, RETURN, END], // a candidate: p + its lane
    [get(0), get(12), ADD, set(0), BR, [0]], // p += the step, loop
    [END, END, CONST, [0x7f], END], // -1
  ].flat(2);
  // count(p, limit, distance, first, firstMask, second, secondMask, end, area, length, firstOffset, maxLines) -> i32:
  // from `p` on, like find, but each candidate is checked against the needle at `area + 8` (its bytes, then its
  // masks) and each match counts its line and skips to the line's end (a \n, or `end`), until `maxLines` lines or
  // `limit`; where the search stopped (the next p) is stored at `area`. Locals 12-15: the splats, 16: the bitmask,
  // 17: the count, 18: the needle's start, 19: an index, 20: the step.
  const count = [
    ...splats(12),
    [BLOCK, LOOP], // out, scan
    [get(0), get(1), GE_U, BR_IF, [1]],
    ...candidates(12, 16, 20),
    [BLOCK, LOOP], // next block, candidates
    [get(16), EQZ, BR_IF, [1]], // no candidate left: the next 16 positions
    [get(0), get(16), CTZ, ADD, get(10), SUB, set(18)], // start = p + lane - firstOffset
    [get(16), get(16), CONST, [1], SUB, I32_AND, set(16)], // drop the lowest candidate
    [BLOCK], // fail
    [get(18), get(9), ADD, get(7), GT_U, BR_IF, [0]], // past the end
    [CONST, [0], set(19), LOOP, get(19), get(9), LT_U, IF], // each byte of the needle
    [get(18), get(19), ADD, LOAD8, [0], get(8), get(9), ADD, get(19), ADD, LOAD8, [8], I32_OR],
    [get(8), get(19), ADD, LOAD8, [8], NE, BR_IF, [2]], // (m[start + i] | mask[i]) != needle[i]: fail
    [get(19), CONST, [1], ADD, set(19), BR, [1], END, END],
    [get(17), CONST, [1], ADD, set(17), get(18), set(19)], // a matching line; its end:
    [BLOCK, LOOP, get(19), get(7), GE_U, BR_IF, [1], get(19), LOAD8, [0], CONST, [10], I32_EQ, BR_IF, [1]],
    [get(19), CONST, [1], ADD, set(19), BR, [0], END, END],
    [get(19), CONST, [1], ADD, get(10), ADD, set(0)], // p = the next line's start + firstOffset
    [get(17), get(11), GE_U, BR_IF, [4], BR, [3]], // enough lines: out; else scan from p
    [END, BR, [0], END, END], // fail: the next candidate
    [get(0), get(20), ADD, set(0), BR, [0]],
    [END, END, get(8), get(0), STORE, get(17), END],
  ].flat(2);
  const findCode = [2, 4, V128, 2, I32, ...body];
  const countCode = [2, 4, V128, 5, I32, ...count];
  const section = (id: number, content: number[]): number[] => [id, ...leb(content.length), ...content];
  const name = (text: string): number[] => [text.length, ...Buffer.from(text, 'latin1')];
  const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  return new Uint8Array([
    ...header,
    // types: (i32 x 7) -> i32, (i32 x 12) -> i32
    ...section(1, [2, 0x60, 7, ...Array(7).fill(I32), 1, I32, 0x60, 12, ...Array(12).fill(I32), 1, I32]),
    ...section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x00, 0x01]), // import env.memory, min 1 page
    ...section(3, [2, 0, 1]), // find, count
    ...section(7, [2, ...name('find'), 0x00, 0, ...name('count'), 0x00, 1]),
    ...section(10, [2, ...leb(findCode.length), ...findCode, ...leb(countCode.length), ...countCode]),
  ]);
}

function leb(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest !== 0);
  return bytes;
}
