import type { ChunkInfo } from '../core/chunk.js';

/** A chunk as a store read it: its index, codec number and stored bytes (compressed when `codec` is not 0). */
export interface StoredChunk extends ChunkInfo {
  codec: number;
  stored: Uint8Array;
}
