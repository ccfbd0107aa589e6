/** How many redacted names are remembered; the oldest is forgotten past it. */
const REMEMBERED = 10_000;

/**
 * The names and URIs the proxy listed in redacted form (`https://admin:[REDACTED:url-credentials]@host/x`), each
 * with the upstream's original, so a client that uses what it was shown reaches the upstream's item. Bounded: the
 * oldest of more than 10,000 is forgotten (then the shown form is sent on as it is, and the upstream says it does
 * not know it).
 */
export class RedactedNames {
  readonly #originals = new Map<string, string>();

  /** Remembers `shown` for `original` when redaction changed it. */
  remember(shown: string | undefined, original: string | undefined): void {
    if (shown === undefined || original === undefined || shown === original) return;
    this.#originals.delete(shown);
    this.#originals.set(shown, original);
    if (this.#originals.size > REMEMBERED) {
      const oldest = this.#originals.keys().next().value;
      if (oldest !== undefined) this.#originals.delete(oldest);
    }
  }

  /** The upstream's name for what the client was shown (the same string when it was not redacted). */
  original(shown: string): string {
    return this.#originals.get(shown) ?? shown;
  }
}
