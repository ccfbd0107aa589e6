/**
 * Content is stored as a sequence of chunks (about 256 KB). Each chunk carries its offsets on three axes so that a
 * slice reads only the chunks it needs: bytes, characters (code points) and lines (newlines before the chunk).
 * A chunk never splits a UTF-8 sequence.
 */
export interface ChunkInfo {
  /** 0-based position in the sequence. */
  seq: number;
  /** Bytes before this chunk. */
  byteStart: number;
  /** Code points before this chunk (0 for binary content). */
  charStart: number;
  /** `\n` characters before this chunk (0 for binary content). */
  lineStart: number;
  bytes: number;
  chars: number;
  /** `\n` characters in this chunk. */
  newlines: number;
}

/** A chunk with its bytes. */
export interface Chunk extends ChunkInfo {
  data: Uint8Array;
}

/** Default chunk size in bytes. */
export const DEFAULT_CHUNK_SIZE = 256 * 1024;

/**
 * The largest chunk a scratchpad writes (its `chunkSize` may not exceed it). A stored chunk whose index claims more
 * bytes was not written by llm-scratchpad, so a read refuses it as corrupt before decompressing anything: this
 * bounds what one damaged or hostile chunk row can make a read allocate.
 */
export const MAX_CHUNK_SIZE = 16 * 1024 * 1024;

/** The axis a position refers to when locating a chunk. */
export type ChunkAxis = 'byte' | 'char' | 'line';

/** Start of `chunk` on `axis`. */
export function chunkStart(chunk: ChunkInfo, axis: ChunkAxis): number {
  return axis === 'byte' ? chunk.byteStart : axis === 'char' ? chunk.charStart : chunk.lineStart;
}
