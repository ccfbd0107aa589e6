import zlib from 'node:zlib';
import { type Chunk, MAX_CHUNK_SIZE } from '../core/chunk.js';
import { ScratchpadError } from '../core/errors.js';
import type { StoredChunk } from './stored-chunk.js';

/**
 * How a store compresses the bytes of each chunk it writes: `none`, or one of the `node:zlib` codecs. Each chunk
 * is compressed on its own, so a slice still decompresses only the chunks it touches (decision 008).
 */
export type ChunkCompression = 'none' | 'gzip' | 'brotli' | 'zstd';

/**
 * The codec number a store keeps beside each chunk (0 = the bytes as written). Persisted: never renumber.
 * A store written before compression existed has only 0s, so it reads as it always did.
 */
export const CODEC_IDS: Readonly<Record<ChunkCompression, number>> = { none: 0, gzip: 1, brotli: 2, zstd: 3 };

/**
 * The codec a store uses when its options name none: `none`. Compression saves 80–90% of the space but makes a
 * large write 2–7× slower (offload fell to 0.05× writeFile+fsync with brotli), so it is opt-in (decision 008).
 */
const DEFAULT_CHUNK_COMPRESSION: ChunkCompression = 'none';

/** A chunk's bytes as stored: its codec number and the stored (maybe compressed) bytes. */
export interface EncodedBytes {
  codec: number;
  stored: Uint8Array;
}

export type { StoredChunk } from './stored-chunk.js';

/** Where a chunk is, for error messages: the entry (or content) and the chunk's seq. */
export interface ChunkPlace {
  where: string;
  seq: number;
}

/**
 * Chunks smaller than this are stored as written: at most a few dozen bytes to save. From it on the ratio decides
 * (a 64-byte chunk of a repeated line still halves); compressing a small chunk costs 15–45 µs (brotli, measured).
 */
export const MIN_COMPRESSED_CHUNK_BYTES = 64;
/** A compressed chunk is kept only when it is at most this fraction of the original (else: stored as written). */
const MAX_COMPRESSED_RATIO = 0.9;
/** Chunks up to this size are (de)compressed on the calling thread; larger ones in libuv's thread pool. */
const INLINE_WORK_BYTES = 64 * 1024;
/** Brotli quality 4: within 10% of quality 5's size at about twice its speed (bench:compression). */
const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;
const ZSTD_LEVEL = 3;

type Sync = (data: Uint8Array, options: zlib.ZlibOptions & zlib.BrotliOptions) => Buffer;
type Async = (
  data: Uint8Array,
  options: zlib.ZlibOptions & zlib.BrotliOptions,
  done: (error: Error | null, result: Buffer) => void,
) => void;

interface Codec {
  compressSync: Sync;
  compress: Async;
  decompressSync: Sync;
  decompress: Async;
  options: (bytes: number) => zlib.ZlibOptions & zlib.BrotliOptions;
}

/** `node:zlib`'s zstd functions, present from Node 22.15 and 23.8 (absent on Node 20). */
const zstd = zlib as unknown as Partial<{
  zstdCompressSync: Sync;
  zstdCompress: Async;
  zstdDecompressSync: Sync;
  zstdDecompress: Async;
}>;

const CODECS: ReadonlyMap<number, Codec> = new Map(
  [
    [
      CODEC_IDS.gzip,
      {
        compressSync: zlib.gzipSync as Sync,
        compress: zlib.gzip as unknown as Async,
        decompressSync: zlib.gunzipSync as Sync,
        decompress: zlib.gunzip as unknown as Async,
        options: () => ({ level: GZIP_LEVEL }),
      },
    ] as const,
    [
      CODEC_IDS.brotli,
      {
        compressSync: zlib.brotliCompressSync as Sync,
        compress: zlib.brotliCompress as unknown as Async,
        decompressSync: zlib.brotliDecompressSync as Sync,
        decompress: zlib.brotliDecompress as unknown as Async,
        options: (bytes: number) => ({
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes,
          },
        }),
      },
    ] as const,
    ...(zstd.zstdCompressSync && zstd.zstdCompress && zstd.zstdDecompressSync && zstd.zstdDecompress
      ? [
          [
            CODEC_IDS.zstd,
            {
              compressSync: zstd.zstdCompressSync,
              compress: zstd.zstdCompress,
              decompressSync: zstd.zstdDecompressSync,
              decompress: zstd.zstdDecompress,
              // ZSTD_c_compressionLevel is 100 (zstd.h); the constant is absent from Node 20's typings.
              options: () => ({ params: { 100: ZSTD_LEVEL } }) as zlib.ZlibOptions,
            },
          ] as const,
        ]
      : []),
  ].map(([id, codec]) => [id, codec as Codec]),
);

/** True when this Node can read and write chunks compressed with `compression`. */
export function compressionAvailable(compression: ChunkCompression): boolean {
  return compression === 'none' || CODECS.has(CODEC_IDS[compression]);
}

/**
 * The compression a store option asks for, checked: `undefined` is the default; an unknown name is
 * `INVALID_ARGUMENT`, and a codec this Node lacks (zstd before Node 22.15) is `CODEC_UNAVAILABLE`.
 */
export function resolveCompression(option: unknown): ChunkCompression {
  if (option === undefined) return DEFAULT_CHUNK_COMPRESSION;
  if (typeof option !== 'string' || !Object.hasOwn(CODEC_IDS, option)) {
    throw new ScratchpadError('INVALID_ARGUMENT', `Unknown chunk compression ${JSON.stringify(option)}.`, {
      hint: `Use one of ${Object.keys(CODEC_IDS).join(', ')} (default ${DEFAULT_CHUNK_COMPRESSION}).`,
      details: { compression: option },
    });
  }
  const compression = option as ChunkCompression;
  if (!compressionAvailable(compression)) throw codecUnavailable(CODEC_IDS[compression], undefined);
  return compression;
}

/**
 * `data` as a store keeps it with `compression`: compressed when that saves at least a tenth (a chunk under
 * {@link MIN_COMPRESSED_CHUNK_BYTES} or one that does not shrink is kept as written, codec 0). Large chunks are
 * compressed in the thread pool, so the event loop stays free.
 */
export async function encodeChunkBytes(
  data: Uint8Array,
  compression: ChunkCompression,
): Promise<EncodedBytes> {
  if (compression === 'none' || data.byteLength < MIN_COMPRESSED_CHUNK_BYTES)
    return { codec: 0, stored: data };
  const id = CODEC_IDS[compression];
  const codec = CODECS.get(id);
  if (!codec) throw codecUnavailable(id, undefined);
  const options = codec.options(data.byteLength);
  const compressed =
    data.byteLength <= INLINE_WORK_BYTES
      ? codec.compressSync(data, options)
      : await new Promise<Buffer>((resolve, reject) =>
          codec.compress(data, options, (error, result) => (error ? reject(error) : resolve(result))),
        );
  return compressed.byteLength <= data.byteLength * MAX_COMPRESSED_RATIO
    ? { codec: id, stored: compressed }
    : { codec: 0, stored: data };
}

/**
 * The bytes of a chunk as written, from its stored form: the one place every store reads chunk bytes through.
 * Codec 0 returns `stored` itself. A codec this Node lacks (a store written with zstd, opened on Node 20) is
 * `CODEC_UNAVAILABLE`; bytes that do not decompress to exactly `bytes` are `STORE_CORRUPT`. A `bytes` over
 * {@link MAX_CHUNK_SIZE} is `STORE_CORRUPT` before anything is decompressed, and decompression stops (`STORE_CORRUPT`)
 * as soon as it would produce more than `bytes`: a decompression bomb costs at most one chunk's size.
 */
export function decodeChunkBytes(
  codec: number,
  stored: Uint8Array,
  bytes: number,
  place: ChunkPlace,
): Buffer {
  checkDeclaredSize(bytes, place);
  if (codec === 0) return checkedLength(asBuffer(stored), bytes, place);
  const implementation = CODECS.get(codec);
  if (!implementation) throw codecUnavailable(codec, place);
  let data: Buffer;
  try {
    data = implementation.decompressSync(stored, { maxOutputLength: Math.max(1, bytes) });
  } catch (error) {
    throw undecodable(codec, place, error);
  }
  return checkedLength(data, bytes, place);
}

/** {@link decodeChunkBytes} in the thread pool for large chunks (the same checks and errors). */
export async function decodeChunkBytesAsync(
  codec: number,
  stored: Uint8Array,
  bytes: number,
  place: ChunkPlace,
): Promise<Buffer> {
  const implementation = CODECS.get(codec);
  checkDeclaredSize(bytes, place);
  if (codec === 0 || !implementation || bytes <= INLINE_WORK_BYTES) {
    return decodeChunkBytes(codec, stored, bytes, place);
  }
  let data: Buffer;
  try {
    data = await new Promise<Buffer>((resolve, reject) =>
      implementation.decompress(stored, { maxOutputLength: Math.max(1, bytes) }, (error, result) =>
        error ? reject(error) : resolve(result),
      ),
    );
  } catch (error) {
    throw undecodable(codec, place, error);
  }
  return checkedLength(data, bytes, place);
}

/**
 * The chunks of `stored` with their bytes as written (see {@link decodeChunkBytes}; `where` names the entry in
 * errors). Several compressed chunks (a grep's batch) are decompressed in parallel in the thread pool. Before any
 * is decompressed, each declared size is checked against {@link MAX_CHUNK_SIZE} and each chunk against the next
 * one in sequence (where one ends, in bytes, the next begins): a chunk row whose sizes were changed is `STORE_CORRUPT`.
 */
export async function decodeChunks(stored: readonly StoredChunk[], where: string): Promise<Chunk[]> {
  checkNeighbours(stored, where);
  const decode = ({ codec, stored: bytes, ...info }: StoredChunk): Chunk => ({
    ...info,
    data: decodeChunkBytes(codec, bytes, info.bytes, { where, seq: info.seq }),
  });
  if (stored.length <= 1 || stored.every((chunk) => chunk.codec === 0)) return stored.map(decode);
  return Promise.all(
    stored.map(async ({ codec, stored: bytes, ...info }) => ({
      ...info,
      data: await decodeChunkBytesAsync(codec, bytes, info.bytes, { where, seq: info.seq }),
    })),
  );
}

/** The name of codec number `codec`, or `codec N` for a number this version does not know. */
function codecName(codec: number): string {
  return Object.entries(CODEC_IDS).find(([, id]) => id === codec)?.[0] ?? `codec ${codec}`;
}

/** `STORE_CORRUPT` when a chunk's index claims more bytes than any chunk llm-scratchpad writes. */
function checkDeclaredSize(bytes: number, place: ChunkPlace): void {
  if (Number.isSafeInteger(bytes) && bytes >= 0 && bytes <= MAX_CHUNK_SIZE) return;
  throw corrupt(
    place,
    `Chunk ${place.seq} of ${place.where} claims ${bytes} bytes; no chunk is larger than ${MAX_CHUNK_SIZE}.`,
  );
}

/**
 * `STORE_CORRUPT` when a chunk does not end where the next chunk in sequence begins, in bytes (the axis every
 * entry has: characters and lines are 0 for binary content).
 */
function checkNeighbours(stored: readonly StoredChunk[], where: string): void {
  for (let index = 1; index < stored.length; index++) {
    const previous = stored[index - 1] as StoredChunk;
    const next = stored[index] as StoredChunk;
    if (next.seq !== previous.seq + 1) continue;
    if (previous.byteStart + previous.bytes !== next.byteStart) {
      throw corrupt(
        { where, seq: previous.seq },
        `Chunk ${previous.seq} of ${where} does not end where chunk ${next.seq} begins (its index claims ${previous.bytes} bytes from byte ${previous.byteStart}; chunk ${next.seq} begins at byte ${next.byteStart}).`,
      );
    }
  }
}

function corrupt(place: ChunkPlace, message: string): ScratchpadError {
  return new ScratchpadError('STORE_CORRUPT', message, {
    hint: 'The store was changed outside llm-scratchpad; delete the entry and write it again.',
    details: { where: place.where, seq: place.seq },
  });
}

function asBuffer(data: Uint8Array): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

function checkedLength(data: Buffer, bytes: number, place: ChunkPlace): Buffer {
  if (data.byteLength === bytes) return data;
  throw corrupt(
    place,
    `Chunk ${place.seq} of ${place.where} has ${data.byteLength} bytes; its index says ${bytes}.`,
  );
}

function undecodable(codec: number, place: ChunkPlace, cause: unknown): ScratchpadError {
  return new ScratchpadError(
    'STORE_CORRUPT',
    `Chunk ${place.seq} of ${place.where} does not decompress as ${codecName(codec)}.`,
    {
      hint: 'The store was changed outside llm-scratchpad; delete the entry and write it again.',
      details: { where: place.where, seq: place.seq, codec: codecName(codec) },
      cause,
    },
  );
}

function codecUnavailable(codec: number, place: ChunkPlace | undefined): ScratchpadError {
  const name = codecName(codec);
  const known = Object.values(CODEC_IDS).includes(codec);
  const message = !known
    ? `${place ? `Chunk ${place.seq} of ${place.where} is stored with ${name}, which` : `${name}`} is unknown to this version of llm-scratchpad.`
    : place
      ? `Chunk ${place.seq} of ${place.where} is compressed with ${name}, which this Node.js (${process.version}) cannot decompress.`
      : `Compression ${name} is not available in this Node.js (${process.version}).`;
  return new ScratchpadError('CODEC_UNAVAILABLE', message, {
    hint: known
      ? 'zstd is in node:zlib from Node 22.15 and 23.8: open the store with such a Node, or write with compression "brotli" (every supported Node has it).'
      : 'The store was written by a newer llm-scratchpad: upgrade to read it.',
    details: { codec: name, node: process.version, ...(place ? { where: place.where, seq: place.seq } : {}) },
  });
}
