/** What {@link describeLifetime} needs of an entry. */
export interface LifetimeFacts {
  /** Epoch milliseconds when the entry expires; `null` = no TTL. */
  expiresAt: number | null;
  pinned?: boolean;
}

/**
 * How long an entry lives, as a model reads it (MCP's guidance for stateful tools: say how long a handle is
 * valid): `kept for 1 hour (until 2026-11-24T14:00:00Z)`, `kept for this session (no expiry)`, or `expired at …`.
 * A pinned entry never expires while pinned.
 */
export function describeLifetime(entry: LifetimeFacts, now: number): string {
  if (entry.expiresAt === null || entry.pinned) return 'kept for this session (no expiry)';
  const until = isoSeconds(entry.expiresAt);
  const remaining = entry.expiresAt - now;
  if (remaining <= 0) return `expired at ${until}`;
  return `kept for ${formatDuration(remaining)} (until ${until})`;
}

/**
 * A duration in the largest unit that says it without a fraction (to 1%), or that counts 10 or more of it:
 * `45 seconds`, `90 seconds`, `59 minutes`, `1 hour`, `90 minutes`, `3 days`.
 */
export function formatDuration(milliseconds: number): string {
  const seconds = Math.max(1, Math.round(milliseconds / 1000));
  for (const [size, unit] of UNITS) {
    const value = seconds / size;
    const whole = Math.round(value);
    if (value >= 10 || (whole >= 1 && Math.abs(value - whole) <= 0.01 * whole)) return plural(whole, unit);
  }
  return plural(seconds, 'second');
}

const UNITS: readonly (readonly [number, string])[] = [
  [86_400, 'day'],
  [3600, 'hour'],
  [60, 'minute'],
];

function plural(value: number, unit: string): string {
  return `${value.toLocaleString('en-US')} ${unit}${value === 1 ? '' : 's'}`;
}

/** An ISO time without milliseconds: `2026-11-24T14:00:00Z`. */
function isoSeconds(epochMs: number): string {
  const date = new Date(epochMs);
  return Number.isNaN(date.getTime()) ? String(epochMs) : date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
