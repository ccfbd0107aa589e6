import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutNotice } from './cut-notice.js';

describe('cutNotice', () => {
  it('says how much was kept of how much, the bound and the call that reads on', () => {
    expect(
      cutNotice({
        cut: {
          stored_bytes: 1_000_000,
          total_bytes: 48_952_729,
          bound: '[runtime] max_stored_bytes',
          read_on: 'fs_read {"path": "/tmp/big.log", "offset": 1000000}',
        },
      }),
    ).toBe(
      '[cut: kept 1,000,000 of 48,952,729 bytes, the bound [runtime] max_stored_bytes; to read on: fs_read {"path": "/tmp/big.log", "offset": 1000000}]',
    );
    expect(cutNotice({ cut: { stored_bytes: 10, total_bytes: null, start: 5, bound: 'b' } })).toBe(
      '[cut: kept 10 bytes of an output whose size is unknown from byte 5, the bound b]',
    );
  });

  it('is no notice without a cut, and one bounded line whatever the values hold', () => {
    expect(cutNotice(undefined)).toBeUndefined();
    expect(cutNotice({ truncated: true })).toBeUndefined();
    expect(cutNotice({ cut: 'yes' })).toBeUndefined();
    fc.assert(
      fc.property(
        fc.nat(),
        fc.option(fc.nat()),
        fc.string(),
        fc.string({ maxLength: 5000 }),
        (kept, total, bound, readOn) => {
          const notice = cutNotice({
            cut: { stored_bytes: kept, total_bytes: total, bound, read_on: readOn },
          });
          expect(notice).toMatch(/^\[cut: kept /);
          expect(notice).not.toMatch(/[\n\r\u2028\u2029]/);
          expect((notice as string).length).toBeLessThanOrEqual(2002);
        },
      ),
    );
  });
});
