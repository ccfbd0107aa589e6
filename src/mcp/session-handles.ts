import { createHash, randomBytes } from 'node:crypto';
import { ScratchpadError } from '../core/errors.js';
import type { Scratchpad } from '../service/scratchpad.js';
import { mcpError } from './mcp-errors.js';

/** How long a handle lasts from the `scratchpad_session` call that issued it (default). */
export const DEFAULT_HANDLE_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * The store session that records issued handles: one entry per handle, named by the handle's session and
 * expiring with it. It holds no handle, only their digests, so reading it grants nothing.
 */
export const HANDLE_REGISTRY_SESSION = 'scratchpad-session-handles';

/** `sph1_<expiry, base36 ms>_<32 base64url characters: 192 random bits>`. */
const HANDLE_PATTERN = /^sph1_([0-9a-z]{1,11})_([A-Za-z0-9_-]{32})$/;

/** Options of {@link SessionHandles}. */
export interface SessionHandlesOptions {
  /** How long an issued handle lasts (default 24 hours). */
  lifetimeMs?: number;
  /** Clock in epoch milliseconds (tests inject the one they give the scratchpad). */
  now?: () => number;
}

/** A handle just issued, and what it grants. */
export interface IssuedHandle {
  handle: string;
  /** The store session the handle names; no client is told it, and knowing it grants nothing. */
  session: string;
  expiresAt: number;
}

/**
 * Session handles of the 2026-07-28 revision (SEP-2567: state through handles the server mints and the client
 * passes back): an opaque, unguessable string that names a fresh session of the store. The store is the only
 * state: each issued handle is recorded under the SHA-256 digest of it, with the handle's lifetime as the
 * record's TTL, so any server process on the same store honours it, and a restart does not end it. A handle's
 * session is the digest, so a handle reaches its own session and no other, and neither the session's name nor the
 * registry gives the handle back.
 */
export class SessionHandles {
  readonly lifetimeMs: number;
  readonly #scratchpad: Scratchpad;
  readonly #now: () => number;

  constructor(scratchpad: Scratchpad, options: SessionHandlesOptions = {}) {
    this.#scratchpad = scratchpad;
    this.lifetimeMs = options.lifetimeMs ?? DEFAULT_HANDLE_LIFETIME_MS;
    if (!Number.isSafeInteger(this.lifetimeMs) || this.lifetimeMs < 1000)
      throw new ScratchpadError(
        'INVALID_ARGUMENT',
        `A handle lifetime must be a whole number of milliseconds, at least 1000 (got ${this.lifetimeMs}).`,
      );
    this.#now = options.now ?? Date.now;
  }

  /** Mints a handle for a new, empty session and records it in the store. */
  async issue(): Promise<IssuedHandle> {
    const expiresAt = this.#now() + this.lifetimeMs;
    const handle = `sph1_${expiresAt.toString(36)}_${randomBytes(24).toString('base64url')}`;
    const session = sessionOfHandle(handle);
    await this.#scratchpad.write(HANDLE_REGISTRY_SESSION, session, JSON.stringify({ expiresAt }), {
      mode: 'create',
      ttlMs: this.lifetimeMs,
      evictable: false,
      source: 'scratchpad_session',
    });
    return { handle, session, expiresAt };
  }

  /**
   * The session `handle` names, checked against the store on every call. Throws `SESSION_HANDLE_INVALID` for
   * anything that is not a handle the store recorded (malformed, forged, or its record deleted) and
   * `SESSION_HANDLE_EXPIRED` once the lifetime the handle states has passed.
   */
  async resolve(handle: unknown): Promise<string> {
    const match = typeof handle === 'string' ? HANDLE_PATTERN.exec(handle) : null;
    if (!match) {
      throw mcpError(
        'SESSION_HANDLE_INVALID',
        'The session handle is malformed: it is not one scratchpad_session issues.',
        {
          hint: "Pass the handle exactly as scratchpad_session returned it, or leave `session` out to use the server's own session.",
        },
      );
    }
    const session = sessionOfHandle(handle as string);
    if (await this.#scratchpad.find(HANDLE_REGISTRY_SESSION, session)) return session;
    const expiresAt = Number.parseInt(match[1] as string, 36);
    if (expiresAt <= this.#now()) {
      throw mcpError(
        'SESSION_HANDLE_EXPIRED',
        `The session handle expired at ${new Date(expiresAt).toISOString()} (a handle lasts ${describeLifetime(this.lifetimeMs)} from the scratchpad_session call that issued it).`,
        {
          hint: 'Call scratchpad_session for a new handle. The entries written with the expired one cannot be reached through the new one.',
        },
      );
    }
    throw mcpError(
      'SESSION_HANDLE_INVALID',
      "The session handle was not issued by this server's store (or its record was deleted).",
      {
        hint: "Call scratchpad_session for a handle, or leave `session` out to use the server's own session.",
      },
    );
  }
}

/** The store session a handle names: the first 192 bits of its SHA-256, prefixed `h-` (a valid session id). */
export function sessionOfHandle(handle: string): string {
  return `h-${createHash('sha256').update(handle).digest('base64url').slice(0, 32)}`;
}

/** "24 hours", "30 minutes", "90 seconds": a lifetime as the tool descriptions state it. */
export function describeLifetime(ms: number): string {
  if (ms % 3_600_000 === 0) return plural(ms / 3_600_000, 'hour');
  if (ms % 60_000 === 0) return plural(ms / 60_000, 'minute');
  return plural(Math.round(ms / 1000), 'second');
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}
