import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_CHUNK_SIZE } from '../core/chunk.js';
import { ScratchpadError } from '../core/errors.js';
import {
  type ChunkCompression,
  CODEC_IDS,
  compressionAvailable,
  decodeChunkBytes,
  decodeChunkBytesAsync,
  decodeChunks,
  encodeChunkBytes,
  MIN_COMPRESSED_CHUNK_BYTES,
  resolveCompression,
} from './chunk-codec.js';

const place = { where: '"s1/doc"', seq: 3 };
const lines = (bytes: number): Buffer =>
  Buffer.from('INFO api GET /v1/items status=200 user=zoë ✓\n'.repeat(Math.ceil(bytes / 40))).subarray(
    0,
    bytes,
  );
const codecs = (['gzip', 'brotli', 'zstd'] as const).filter(compressionAvailable);

function caught(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('chunk codec', () => {
  it.each(codecs)('%s round-trips small (calling thread) and large (thread pool) chunks', async (name) => {
    for (const size of [1000, 10_000, 256 * 1024]) {
      const data = lines(size);
      const encoded = await encodeChunkBytes(data, name);
      expect(encoded.codec).toBe(CODEC_IDS[name]);
      expect(encoded.stored.byteLength).toBeLessThan(size * 0.9);
      expect(decodeChunkBytes(encoded.codec, encoded.stored, size, place).equals(data)).toBe(true);
      expect((await decodeChunkBytesAsync(encoded.codec, encoded.stored, size, place)).equals(data)).toBe(
        true,
      );
    }
  });

  it('keeps as written what does not shrink by a tenth, tiny chunks, and everything with none', async () => {
    const noise = randomBytes(64 * 1024);
    expect(await encodeChunkBytes(noise, 'brotli')).toEqual({ codec: 0, stored: noise });
    const tiny = lines(MIN_COMPRESSED_CHUNK_BYTES - 1);
    expect((await encodeChunkBytes(tiny, 'brotli')).codec).toBe(0);
    expect((await encodeChunkBytes(lines(100_000), 'none')).codec).toBe(0);
  });

  it('decodes a batch of mixed chunks in order', async () => {
    const sizes = [200_000, 100_000, 300_000];
    const chunks = await Promise.all(
      [lines(200_000), randomBytes(100_000), lines(300_000)].map(async (data, seq) => {
        const { codec, stored } = await encodeChunkBytes(data, 'brotli');
        return {
          data,
          stored: {
            seq,
            byteStart: sizes.slice(0, seq).reduce((sum, size) => sum + size, 0),
            charStart: 0,
            lineStart: 0,
            bytes: data.byteLength,
            chars: 0,
            newlines: 0,
            codec,
            stored,
          },
        };
      }),
    );
    const decoded = await decodeChunks(
      chunks.map((chunk) => chunk.stored),
      '"s1/doc"',
    );
    expect(decoded.map((chunk) => Buffer.from(chunk.data).equals(chunks[chunk.seq]?.data as Buffer))).toEqual(
      [true, true, true],
    );
    expect(decoded.map((chunk) => chunk.seq)).toEqual([0, 1, 2]);
  });

  it('bytes that decompress to more or less than the index says, or not at all, are STORE_CORRUPT', async () => {
    const data = lines(100_000);
    const { codec, stored } = await encodeChunkBytes(data, 'brotli');
    // More than the index says: decompression stops at the bound instead of inflating a bomb.
    for (const bytes of [99_999, 100_001]) {
      expect(
        ScratchpadError.hasCode(
          caught(() => decodeChunkBytes(codec, stored, bytes, place)),
          'STORE_CORRUPT',
        ),
      ).toBe(true);
      await expect(decodeChunkBytesAsync(codec, stored, bytes, place)).rejects.toMatchObject({
        code: 'STORE_CORRUPT',
      });
    }
    const garbage = Buffer.alloc(stored.byteLength, 0x5a);
    const error = caught(() => decodeChunkBytes(codec, garbage, 100_000, place));
    expect(ScratchpadError.hasCode(error, 'STORE_CORRUPT')).toBe(true);
    expect((error as Error).message).toBe('Chunk 3 of "s1/doc" does not decompress as brotli.');
    expect(
      ScratchpadError.hasCode(
        caught(() => decodeChunkBytes(0, data, 5, place)),
        'STORE_CORRUPT',
      ),
    ).toBe(true);
  });

  it('a chunk claiming more than the largest chunk is STORE_CORRUPT before anything is decompressed', async () => {
    // Garbage bytes: had they been decompressed, the error would say they do not decompress.
    const garbage = Buffer.alloc(1000, 0x5a);
    for (const codec of [0, ...codecs.map((name) => CODEC_IDS[name])]) {
      for (const bytes of [MAX_CHUNK_SIZE + 1, 2 ** 30, -1, 1.5, Number.NaN]) {
        const error = caught(() => decodeChunkBytes(codec, garbage, bytes, place));
        expect(ScratchpadError.hasCode(error, 'STORE_CORRUPT')).toBe(true);
        expect((error as Error).message).toBe(
          `Chunk 3 of "s1/doc" claims ${bytes} bytes; no chunk is larger than ${MAX_CHUNK_SIZE}.`,
        );
        await expect(decodeChunkBytesAsync(codec, garbage, bytes, place)).rejects.toThrow(/claims/);
      }
    }
  });

  it.each(codecs.filter((name) => name !== 'zstd'))(
    'a %s bomb (64 MiB from a few KB) declared as 1 MiB stops at 1 MiB: STORE_CORRUPT',
    async (name) => {
      const bomb =
        name === 'gzip'
          ? zlib.gzipSync(Buffer.alloc(64 * 1024 ** 2, 0x61))
          : zlib.brotliCompressSync(Buffer.alloc(64 * 1024 ** 2, 0x61), {
              params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 },
            });
      expect(bomb.byteLength).toBeLessThan(100_000);
      const error = caught(() => decodeChunkBytes(CODEC_IDS[name], bomb, 1024 ** 2, place));
      expect((error as Error).message).toBe(`Chunk 3 of "s1/doc" does not decompress as ${name}.`);
      await expect(decodeChunkBytesAsync(CODEC_IDS[name], bomb, 1024 ** 2, place)).rejects.toMatchObject({
        code: 'STORE_CORRUPT',
      });
    },
  );

  it('a chunk that does not end where the next one begins is STORE_CORRUPT before decompressing', async () => {
    const data = lines(100_000);
    const { codec, stored } = await encodeChunkBytes(data, 'brotli');
    const chunk = (seq: number, byteStart: number, bytes: number) => ({
      seq,
      byteStart,
      charStart: 0,
      lineStart: 0,
      bytes,
      chars: 0,
      newlines: 0,
      codec,
      stored,
    });
    // Chunk 0 claims 200,000 bytes, but chunk 1 begins at byte 100,000.
    await expect(
      decodeChunks([chunk(0, 0, 200_000), chunk(1, 100_000, 100_000)], '"s1/doc"'),
    ).rejects.toThrow(
      'Chunk 0 of "s1/doc" does not end where chunk 1 begins (its index claims 200000 bytes from byte 0; chunk 1 begins at byte 100000).',
    );
    const decoded = await decodeChunks([chunk(0, 0, 100_000), chunk(1, 100_000, 100_000)], '"s1/doc"');
    expect(decoded.map((each) => Buffer.from(each.data).equals(data))).toEqual([true, true]);
  });

  it('a codec number this version does not know, or zstd without zstd, is CODEC_UNAVAILABLE', () => {
    const unknown = caught(() => decodeChunkBytes(7, Buffer.from('x'), 1, place));
    expect(ScratchpadError.hasCode(unknown, 'CODEC_UNAVAILABLE')).toBe(true);
    expect((unknown as ScratchpadError).details).toMatchObject({ codec: 'codec 7', seq: 3 });
    if (!compressionAvailable('zstd')) {
      const zstd = caught(() => decodeChunkBytes(CODEC_IDS.zstd, Buffer.from('x'), 1, place));
      expect(ScratchpadError.hasCode(zstd, 'CODEC_UNAVAILABLE')).toBe(true);
      expect((zstd as Error).message).toContain('compressed with zstd, which this Node.js');
    }
  });

  it('resolves the store option', () => {
    expect(resolveCompression(undefined)).toBe('none');
    for (const name of ['none', 'gzip', 'brotli'] as ChunkCompression[])
      expect(resolveCompression(name)).toBe(name);
    expect(
      ScratchpadError.hasCode(
        caught(() => resolveCompression('lz4')),
        'INVALID_ARGUMENT',
      ),
    ).toBe(true);
    expect(
      ScratchpadError.hasCode(
        caught(() => resolveCompression('toString')),
        'INVALID_ARGUMENT',
      ),
    ).toBe(true);
  });
});
