import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { flatString, probeEventLoop, TEST_STALL_BOUND_MS } from '../../../test/support/event-loop-probe.js';
import { createMemoryDriver, createScratchpad } from '../../index.js';
import { encodeText } from './encoded-text.js';

describe('encodeText', () => {
  it('gives the bytes and counts the store records for the same text, across piece edges and surrogate pairs', async () => {
    const scratchpad = createScratchpad({ driver: createMemoryDriver() });
    const texts = [
      '',
      'a',
      'no newline at the end',
      'ends with one\n',
      '\n\n\n',
      'emoji 😀 at the edge 😀😀\nzoë, 太郎\r\nlast',
      'lone \ud800 surrogate and \udc00 another\n',
      '😀'.repeat(7),
    ];
    for (const text of texts) {
      for (const pieceUnits of [2, 3, 5, 1 << 20]) {
        const encoded = await encodeText(text, { pieceUnits });
        expect(encoded.bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
        if (text.length === 0) {
          expect(encoded).toMatchObject({ chars: 0, lines: 0 });
          continue;
        }
        // As bytes: a string with a lone surrogate is refused by a write (UTF-8 cannot hold one); its encoding is not.
        const { entry } = await scratchpad.write('s', 'probe', Buffer.from(text, 'utf8'), { kind: 'text' });
        expect({ chars: encoded.chars, lines: encoded.lines, bytes: encoded.bytes.byteLength }).toEqual({
          chars: entry.chars,
          lines: entry.lines,
          bytes: entry.bytes,
        });
      }
    }
    await scratchpad.close();
  });

  it('encodes 60 MB without keeping the event loop busy past the bound', async () => {
    const text = flatString('2025-01-15T08:00:00Z INFO api GET /v1/items user=zoë ✓\n'.repeat(1_000_000));
    const probe = await probeEventLoop(() => encodeText(text));
    expect(probe.value.bytes.byteLength).toBe(Buffer.byteLength(text, 'utf8'));
    expect(probe.value.lines).toBe(1_000_000);
    expect(probe.worstBusyMs).toBeLessThan(TEST_STALL_BOUND_MS);
  });
});
