import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { perPatternScan } from '../../testing/per-pattern-redaction.js';
import { createRedactor } from './redactor.js';
import { CORPUS_LOOKALIKES, CORPUS_SECRETS } from './secret-corpus.fixture.js';
import { BUILTIN_SECRET_PATTERNS } from './secret-patterns.js';
import { WINDOW } from './secret-window.js';
import { BUILTIN_WITNESSES } from './secret-witnesses.js';

const redactor = createRedactor();

/** Pieces that come near the witnesses without being secrets, and the characters their checks turn on. */
const NEAR_WITNESSES = [
  'key=',
  'KEY]=',
  'Token": "',
  'passwd : "',
  '\u212Aey=',
  'ſecret: "x"',
  'pwd=',
  'authorization:',
  'x-api-key=',
  'Bearer ',
  'bearer\t',
  'https://u:p@h',
  'ftp://a:b:c@',
  '://',
  '@',
  'sk-',
  'sk_live_',
  '-----BEGIN',
  '-----END',
  '--',
  '.eyJ',
  'SG.',
  'AKIA',
  'AIza',
  'ghp_',
  'glpat-',
  'xoxb-',
  'hf_',
  'npm_',
  '"private_key_id"',
  '\\n',
  '\\t',
  '\\',
  '"',
  "'",
  ' ',
  '\n',
  '\r\n',
  '\t',
  ':',
  '=',
  '\ud800',
  '🌍',
];

const FILLER_LINES = [
  '2025-01-15T08:00:00.000Z INFO api-3 GET /v1/items/4411 status=200 duration=12ms user=zoë req=9f2c',
  '{"id":12,"name":"user 12","email":"u12@example.com","tags":["a","b"],"note":"one\\ntwo"}',
  '12,User 12,u12@example.com,2025-01-15T08:00:00Z,16.44,ok',
];

const piece = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...CORPUS_SECRETS.map((item) => item.text)) },
  { weight: 3, arbitrary: fc.constantFrom(...CORPUS_LOOKALIKES.map((item) => item.text)) },
  { weight: 6, arbitrary: fc.constantFrom(...NEAR_WITNESSES) },
  { weight: 3, arbitrary: fc.constantFrom(...FILLER_LINES) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{8,48}$/) },
);
const text = fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join(''));

/** The fast redactor's answer and the per-pattern one's: the text and counts, or the error code refused with. */
function both(input: string): [unknown, unknown] {
  const run = (scan: (text: string) => unknown) => {
    try {
      return scan(input);
    } catch (error) {
      return { refused: (error as { code?: string }).code };
    }
  };
  return [run((value) => redactor.scan(value)), run(perPatternScan)];
}

describe('the one-pass redactor gives exactly what the per-pattern redactor gives', () => {
  it('has a witness for every built-in pattern', () => {
    expect(BUILTIN_WITNESSES).toHaveLength(BUILTIN_SECRET_PATTERNS.length);
  });

  it('on every corpus text, secret and look-alike', () => {
    for (const item of [...CORPUS_SECRETS, ...CORPUS_LOOKALIKES]) {
      const [fast, oracle] = both(item.text);
      expect(fast, item.label).toEqual(oracle);
    }
  });

  it('on random mixes of secrets, look-alikes, near-witnesses and filler', () => {
    fc.assert(
      fc.property(text, (input) => {
        const [fast, oracle] = both(input);
        expect(fast).toEqual(oracle);
      }),
      { numRuns: 400 },
    );
  });

  it('on mixes long enough to be redacted in several windows', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 2, maxLength: 6 }), fc.nat(WINDOW), (parts, padding) => {
        const filler = `${FILLER_LINES.join('\n')}\n`.repeat(Math.ceil(padding / 200));
        const input = parts.join(filler);
        const [fast, oracle] = both(input);
        expect(fast).toEqual(oracle);
      }),
      { numRuns: 12 },
    );
  });
});
