import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScratchpadError } from '../errors.js';
import { createRedactor } from './redactor.js';
import { CORPUS_SECRETS } from './secret-corpus.fixture.js';
import { MAX_REACH, WINDOW } from './secret-window.js';

const redactor = createRedactor();
const secrets = CORPUS_SECRETS.filter((item) => !item.label.includes('cut'));
const serviceAccount = CORPUS_SECRETS.find((item) => item.label === 'GCP service account JSON');
if (!serviceAccount) throw new Error('the corpus has no service-account JSON');
/** Property runs, printed so the closing note can quote them. */
const RUNS = Number(process.env.SCRATCHPAD_REDACTION_RUNS ?? 120);

/** Every 12-character piece of `secret`: none may survive, whatever part of the secret a cut would have left. */
function pieces(secret: string): string[] {
  const out: string[] = [];
  for (let index = 0; index + 12 <= secret.length; index += 6) out.push(secret.slice(index, index + 12));
  return out;
}

function expectNoPiece(output: string, secret: string): void {
  const shown = pieces(secret).filter((piece) => output.includes(piece));
  expect(shown).toEqual([]);
}

/** The text shapes the issue named, each with a secret planted after `padding` characters. */
const SHAPES = {
  /** A service-account file on one line (its key's line ends are `\n` escapes). */
  oneLineJson: (padding: number, text: string) => JSON.stringify({ padding: 'p'.repeat(padding), text }),
  /** Windows line ends. */
  crlf: (padding: number, text: string) =>
    `${'log line\r\n'.repeat(Math.floor(padding / 10))}${'q'.repeat(padding % 10)}\r\n${text.replaceAll('\n', '\r\n')}\r\ntail\r\n`,
  /** No line end, no blank, no comma, no quote: nowhere a line-based cut could go. */
  noNewline: (padding: number, text: string) => `${'z'.repeat(padding)};${text.replaceAll('\n', '\\n')};end`,
} as const;

describe('redaction fails closed at window edges', () => {
  it.each([64_536, 65_336, 130_572])(
    'catches a private key in a one-line service-account JSON after %i characters of padding',
    async (padding) => {
      const file = JSON.stringify({ padding: 'x'.repeat(padding), ...JSON.parse(serviceAccount.text) });
      const key = (JSON.parse(serviceAccount.text) as { private_key: string }).private_key;
      const output = await redactor.redact(file);
      for (const line of key.split('\n').filter((part) => !part.startsWith('-----')))
        expectNoPiece(output, line);
      expect(output).toContain('[REDACTED:private-key]');
    },
  );

  /** What must not come out: the secret's longest line, as the shape writes line ends. */
  const shownSecret = (item: (typeof secrets)[number], shape: keyof typeof SHAPES) => {
    const secret = shape === 'noNewline' ? item.secret.replaceAll('\n', '\\n') : item.secret;
    return secret.split(/\r?\n|\\n/).sort((a, b) => b.length - a.length)[0] ?? secret;
  };
  // The pairs the redactor catches in a short text (a `.env` line inside a JSON string is not a line, so it is
  // not caught there at all): planted anywhere in a long text, each must be caught too.
  const caught = secrets.flatMap((item) =>
    (Object.keys(SHAPES) as Array<keyof typeof SHAPES>)
      .filter((shape) => {
        const secret = shownSecret(item, shape);
        return !pieces(secret).some((piece) =>
          redactor.redactSync(SHAPES[shape](0, item.text)).includes(piece),
        );
      })
      .map((shape) => ({ item, shape })),
  );

  it('catches most corpus secrets in every shape when the text is short (the baseline the next test keeps)', () => {
    expect(caught.length).toBeGreaterThan((3 * secrets.length * 3) / 4);
  });

  it('never lets a planted secret out, at any offset, in one-line JSON, CRLF or text without line ends', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...caught),
        fc.oneof(
          fc.integer({ min: WINDOW - 4_000, max: WINDOW + 200 }),
          fc.integer({ min: 2 * WINDOW - 4_000, max: 2 * WINDOW + 200 }),
          fc.integer({ min: 0, max: 3 * WINDOW }),
        ),
        async ({ item, shape }, padding) => {
          runs++;
          const text = SHAPES[shape](padding, item.text);
          expectNoPiece(await redactor.redact(text), shownSecret(item, shape));
        },
      ),
      { numRuns: RUNS },
    );
    console.log(`redaction at window edges: ${runs} property runs, no secret out`);
    expect(runs).toBe(RUNS);
  }, 600_000);

  it('refuses text whose match runs on past the reach of a window, instead of cutting it', async () => {
    const endless = `-----BEGIN PRIVATE KEY-----${'A'.repeat(MAX_REACH + 10)}`;
    let caught: unknown;
    try {
      await redactor.redact(endless);
    } catch (error) {
      caught = error;
    }
    expect(ScratchpadError.hasCode(caught, 'CONTENT_TOO_LARGE')).toBe(true);
  });
});

/** Every string in a value, keys included, found without recursion (JSON.stringify overflows at such depths). */
function stringsIn(value: unknown): string[] {
  const out: string[] = [];
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') out.push(item);
    else if (Array.isArray(item)) stack.push(...item);
    else if (item !== null && typeof item === 'object')
      for (const [key, child] of Object.entries(item)) stack.push(key, child);
  }
  return out;
}

describe('redaction of JSON text', () => {
  it('catches a token right after an escaped line end or tab, as in the string the JSON holds', () => {
    for (const item of secrets.filter(
      // `.env` lines need a line start, which a JSON string has not (the documented limit).
      (secret) =>
        !secret.text.includes('\n') && /^[a-zA-Z]/.test(secret.text) && !secret.kinds.includes('env-secret'),
    )) {
      for (const lineEnd of ['\n', '\r\n', '\t']) {
        const raw = `line${lineEnd}${item.text}${lineEnd}end`;
        if (redactor.redactSync(raw).includes(item.secret)) continue;
        expect(
          redactor.redactSync(JSON.stringify({ value: raw })),
          `${item.label} after ${JSON.stringify(lineEnd)}`,
        ).not.toContain(item.secret);
      }
    }
  });
});

describe('redaction fails closed at any depth', () => {
  it('redacts a secret nested at any depth, in objects and arrays, keys too', async () => {
    let runs = 0;
    const env = secrets.find((item) => item.label === '.env API key');
    if (!env) throw new Error('no .env secret');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.boolean(), { minLength: 0, maxLength: 3000 }),
        fc.boolean(),
        async (path, asKey) => {
          runs++;
          let value: unknown = asKey ? { [env.text]: 1 } : env.text;
          for (const inArray of path) value = inArray ? [0, value] : { level: value, other: 'x' };
          const output = stringsIn(await redactor.redactValue(value)).join('\n');
          expect(output.includes(env.secret)).toBe(false);
          expect(output.includes('[REDACTED:env-secret]')).toBe(true);
        },
      ),
      {
        numRuns: Math.max(20, Math.floor(RUNS / 2)),
        examples: [
          [Array(100_000).fill(false), false],
          [Array(100_000).fill(true), true],
        ],
      },
    );
    console.log(`redaction at any depth: ${runs} property runs, no secret out`);
  }, 600_000);

  it('keeps the slots the caller names, and a "__proto__" key stays a key', async () => {
    const value = JSON.parse(
      `{"__proto__": {"x": 1}, "data": "DB_PASSWORD=abcdefgh", "keep": "DB_PASSWORD=abcdefgh"}`,
    ) as Record<string, unknown>;
    const output = await redactor.redactValue(value, (_holder, key) => key === 'keep');
    expect(Object.getPrototypeOf(output)).toBe(Object.prototype);
    expect(Object.keys(output)).toEqual(['__proto__', 'data', 'keep']);
    expect(output.data).toBe('DB_PASSWORD=[REDACTED:env-secret]');
    expect(output.keep).toBe('DB_PASSWORD=abcdefgh');
  });
});
