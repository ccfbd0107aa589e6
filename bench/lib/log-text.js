/**
 * Deterministic log-like text for benchmarks: timestamped lines with levels, services, paths, durations and
 * some multi-byte characters (accented names, arrows, CJK, emoji), about 1 in 25 lines an ERROR.
 */

const LEVELS = [
  'INFO ',
  'INFO ',
  'INFO ',
  'INFO ',
  'INFO ',
  'INFO ',
  'INFO ',
  'INFO ',
  'DEBUG',
  'DEBUG',
  'WARN ',
];
const SERVICES = ['api', 'worker', 'db', 'cache', 'auth', 'billing', 'search'];
const USERS = ['alice', 'bob', 'françois', 'zoë', 'jürgen', 'ana-maría', 'søren', '太郎', 'olga', 'raj'];
const PATHS = [
  '/v1/items',
  '/v1/orders',
  '/v2/search',
  '/health',
  '/v1/users/me',
  '/v1/cart → checkout',
  '/v1/export',
];
const ERRORS = [
  'query failed: timeout after 3000ms (retry 2/5) — pool exhausted',
  'upstream returned status=503 for /v1/orders ✗',
  'unhandled exception: TypeError: cannot read properties of undefined',
  'disk quota exceeded on /var/lib/data (98% used) ⚠',
  'payment declined: card_expired — user notified 📧',
];

/** A small deterministic PRNG (mulberry32). */
export function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** A pool of distinct lines (built once; pieces pick from it with a running line number). */
function linePool(next, size) {
  const pick = (list) => list[Math.floor(next() * list.length)];
  const lines = [];
  for (let index = 0; index < size; index++) {
    const service = `${pick(SERVICES)}-${Math.floor(next() * 8)}`;
    if (next() < 0.04) {
      lines.push(`ERROR ${service} ${pick(ERRORS)} user=${pick(USERS)}`);
    } else {
      const status = next() < 0.97 ? 200 : next() < 0.5 ? 404 : 500 + Math.floor(next() * 4);
      const level = pick(LEVELS);
      lines.push(
        `${level} ${service} GET ${pick(PATHS)}/${Math.floor(next() * 100000)} status=${status} ` +
          `duration=${Math.floor(next() * 900)}ms user=${pick(USERS)} req=${Math.floor(next() * 0xffffffff).toString(16)}`,
      );
    }
  }
  return lines;
}

const STAMP = Buffer.from('2025-01-15T08:00:00.000Z ', 'latin1');

/** Writes the timestamp `milliseconds` after 2025-01-15T08:00Z at `at` (Date#toISOString dominated the time). */
function writeStamp(target, at, milliseconds) {
  target.set(STAMP, at);
  const total = 8 * 3_600_000 + milliseconds;
  writeDigits(target, at + 8, 2, 15 + Math.floor(total / 86_400_000));
  writeDigits(target, at + 11, 2, Math.floor(total / 3_600_000) % 24);
  writeDigits(target, at + 14, 2, Math.floor(total / 60_000) % 60);
  writeDigits(target, at + 17, 2, Math.floor(total / 1000) % 60);
  writeDigits(target, at + 20, 3, total % 1000);
  return STAMP.byteLength;
}

function writeDigits(target, at, width, value) {
  let rest = value;
  for (let index = width - 1; index >= 0; index--) {
    target[at + index] = 48 + (rest % 10);
    rest = Math.floor(rest / 10);
  }
}

/**
 * Yields `totalBytes` of log text (exactly, cut on a UTF-8 boundary) as Buffers of about `pieceBytes`.
 * Memory stays O(pieceBytes) whatever the total.
 */
export function* logPieces(totalBytes, { seed = 42, pieceBytes = 1 << 20 } = {}) {
  const next = random(seed);
  const pool = linePool(next, 20_000).map((line) => Buffer.from(`${line}\n`, 'utf8'));
  const longest = Math.max(...pool.map((line) => line.byteLength)) + STAMP.byteLength;
  let written = 0;
  let line = 0;
  while (written < totalBytes) {
    const piece = Buffer.allocUnsafe(pieceBytes + longest);
    let size = 0;
    while (size < pieceBytes) {
      size += writeStamp(piece, size, line * 37);
      const text = pool[Math.floor(next() * pool.length)];
      piece.set(text, size);
      size += text.byteLength;
      line++;
    }
    let cut = Math.min(size, totalBytes - written);
    while (cut > 0 && cut < size && (piece[cut] & 0xc0) === 0x80) cut--;
    if (cut === 0) return;
    written += cut;
    yield piece.subarray(0, cut);
  }
}

/** `totalBytes` of log text as one Buffer. */
export function logBuffer(totalBytes, options) {
  return Buffer.concat([...logPieces(totalBytes, options)]);
}
