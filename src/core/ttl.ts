/** The shortest TTL: one second (the CLI and tools count TTLs in whole seconds). */
export const MIN_TTL_MS = 1000;
/** The longest TTL: 100 years of 365.25 days (a longer one is a mistake; keep such an entry with no TTL). */
export const MAX_TTL_SECONDS = 100 * 36_525 * 864;
export const MAX_TTL_MS = MAX_TTL_SECONDS * 1000;

/** The accepted range of a TTL in seconds, as error messages show it. */
export const TTL_SECONDS_RANGE = `whole seconds from 1 to ${MAX_TTL_SECONDS} (100 years)`;
