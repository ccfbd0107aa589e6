/** What crash-writer.mjs writes as entry I (a small text, a few hundred bytes at most: one round trip). */
export function contentOf(index) {
  return `write ${index} `.repeat(1 + (index % 50));
}

/** The pieces of the large entry crash-writer.mjs streams before its SIGKILL: three of 1 MiB each. */
export function largePieces() {
  return Array.from({ length: 3 }, (_, part) => `${String(part)}`.repeat(1024 * 1024));
}
