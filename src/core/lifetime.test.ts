import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeLifetime, formatDuration } from './lifetime.js';

const now = Date.UTC(2026, 10, 24, 13, 0, 0);

describe('describeLifetime', () => {
  it('says the TTL left and the time it ends, "this session" without one, and expired after it', () => {
    expect(describeLifetime({ expiresAt: now + 3_600_000 }, now)).toBe(
      'kept for 1 hour (until 2026-11-24T14:00:00Z)',
    );
    expect(describeLifetime({ expiresAt: now + 90_000 }, now)).toBe(
      'kept for 90 seconds (until 2026-11-24T13:01:30Z)',
    );
    expect(describeLifetime({ expiresAt: null }, now)).toBe('kept for this session (no expiry)');
    expect(describeLifetime({ expiresAt: now + 1000, pinned: true }, now)).toBe(
      'kept for this session (no expiry)',
    );
    expect(describeLifetime({ expiresAt: now - 1 }, now)).toBe('expired at 2026-11-24T12:59:59Z');
  });

  it('formats every duration in one unit, singular for one', () => {
    expect(formatDuration(1_000)).toBe('1 second');
    expect(formatDuration(45_000)).toBe('45 seconds');
    expect(formatDuration(59 * 60_000)).toBe('59 minutes');
    expect(formatDuration(3_600_000)).toBe('1 hour');
    expect(formatDuration(7 * 86_400_000)).toBe('7 days');
    expect(formatDuration(5_400_000)).toBe('90 minutes');
    expect(formatDuration(3_599_400)).toBe('1 hour');
    fc.assert(
      fc.property(fc.integer({ min: -1e15, max: 1e15 }), (ms) => {
        expect(formatDuration(ms)).toMatch(/^[\d,]+ (second|minute|hour|day)s?$/);
      }),
    );
  });
});
