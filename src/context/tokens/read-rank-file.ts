import { readFile } from 'node:fs/promises';
import { BpeRankTable } from './bpe-rank-table.js';

/** How long reading the rank file may hold the event loop before it yields, in milliseconds. */
const SLICE_MS = 8;

/**
 * Reads a tiktoken rank file (one `<token bytes in base64> <rank>` line per token, as tiktoken and gpt-tokenizer
 * ship them) into a {@link BpeRankTable}. The file is read off the loop and decoded a few milliseconds at a time,
 * so loading an encoding's 200,000 ranks never stalls the event loop (importing gpt-tokenizer's rank module, a
 * 2.4 MB array literal, held it for 170–290 ms).
 */
export async function readRankFile(path: string): Promise<BpeRankTable> {
  const file = await readFile(path);
  let lines = 0;
  for (let index = 0; index < file.length; index += 1) if (file[index] === NEWLINE) lines += 1;
  if (file.length > 0 && file[file.length - 1] !== NEWLINE) lines += 1;
  const table = new BpeRankTable(lines);
  const token = new Uint8Array(MAX_LINE);
  let position = 0;
  let lineNumber = 0;
  let sliceStart = performance.now();
  while (position < file.length) {
    lineNumber += 1;
    let space = position;
    while (space < file.length && file[space] !== SPACE && file[space] !== NEWLINE) space += 1;
    let lineEnd = space;
    let rank = 0;
    for (; lineEnd < file.length && file[lineEnd] !== NEWLINE; lineEnd += 1) {
      const digit = (file[lineEnd] as number) - 0x30;
      if (lineEnd > space && digit >= 0 && digit <= 9) rank = rank * 10 + digit;
      else if (lineEnd > space) rank = Number.NaN;
    }
    if (lineEnd > position) {
      const length = space - position <= MAX_LINE ? decodeBase64(file, position, space, token) : -1;
      if (length <= 0 || lineEnd - space < 2 || !Number.isInteger(rank)) throw malformed(path, lineNumber);
      table.add(rank, token, 0, length);
    }
    position = lineEnd + 1;
    if ((lineNumber & 63) === 0 && performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return table;
}

/** Longest base64 token text accepted (tokens are at most a few hundred bytes). */
const MAX_LINE = 4096;
const NEWLINE = 0x0a;
const SPACE = 0x20;

const BASE64_VALUES = (() => {
  const values = new Int8Array(256).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let index = 0; index < alphabet.length; index += 1) values[alphabet.charCodeAt(index)] = index;
  return values;
})();

/** Decodes base64 `source[start..end)` into `target` from 0; the decoded length, or -1 for a character outside base64. */
function decodeBase64(source: Uint8Array, start: number, end: number, target: Uint8Array): number {
  let bits = 0;
  let bitCount = 0;
  let written = 0;
  for (let index = start; index < end; index += 1) {
    const character = source[index] as number;
    if (character === 0x3d) break; // '=' padding
    const value = BASE64_VALUES[character] as number;
    if (value < 0) return -1;
    bits = ((bits << 6) | value) & 0xffffff;
    bitCount += 6;
    if (bitCount >= 8) {
      bitCount -= 8;
      target[written] = (bits >> bitCount) & 0xff;
      written += 1;
    }
  }
  return written;
}

function malformed(path: string, line: number): Error {
  return new Error(`Malformed BPE rank file ${path} at line ${line}.`);
}
