import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { probeEventLoop, TEST_STALL_BOUND_MS } from '../../testing/event-loop-probe.js';
import { ScratchpadError } from '../errors.js';
import { createRedactor, NO_REDACTION, redactionMarker } from './redactor.js';
import { CORPUS_LOOKALIKES, CORPUS_SECRETS } from './secret-corpus.fixture.js';

const redactor = createRedactor();

describe('createRedactor: the corpus', () => {
  it.each(CORPUS_SECRETS.map((item) => [item.label, item] as const))('catches %s', (_label, item) => {
    const { text, counts } = redactor.scan(item.text);
    expect(text).not.toContain(item.secret);
    expect(Object.keys(counts).sort()).toEqual([...new Set(item.kinds)].sort());
    for (const kind of item.kinds) expect(text).toContain(redactionMarker(kind));
  });

  it.each(CORPUS_LOOKALIKES.map((item) => [item.label, item] as const))('keeps %s', (_label, item) => {
    expect(redactor.scan(item.text)).toEqual({ text: item.text, counts: {} });
  });

  it('catches every secret and keeps every look-alike when they are mixed in one text', () => {
    const mixed = [...CORPUS_SECRETS.map((item) => item.text), ...CORPUS_LOOKALIKES.map((item) => item.text)]
      .sort()
      .join('\n;\n');
    const redacted = redactor.redactSync(mixed);
    for (const item of CORPUS_SECRETS) expect(redacted).not.toContain(item.secret);
    for (const item of CORPUS_LOOKALIKES) expect(redacted).toContain(item.text);
  });

  it('keeps lone surrogates and other odd code units outside the secrets as they are', () => {
    const text = `lone \ud800 here, \udc00 there, 🌍 and DB_PASSWORD=abcdefgh \ud83d`;
    expect(redactor.redactSync(text)).toBe(
      `lone \ud800 here, \udc00 there, 🌍 and DB_PASSWORD=[REDACTED:env-secret] \ud83d`,
    );
    expect(redactor.redactSync('no secret \ud800')).toBe('no secret \ud800');
  });

  it('keeps the text around a secret byte for byte', () => {
    const secret = CORPUS_SECRETS.find((item) => item.label === '.env API key');
    expect(redactor.redactSync(secret?.text ?? '')).toBe(
      'NODE_ENV=production\nPAYMENTS_API_KEY=[REDACTED:env-secret]\nPORT=8080',
    );
  });
});

describe('createRedactor: configuration', () => {
  it('is off with enabled: false, and NO_REDACTION changes nothing', async () => {
    const text = CORPUS_SECRETS.map((item) => item.text).join('\n');
    expect(createRedactor({ enabled: false }).redactSync(text)).toBe(text);
    expect(await NO_REDACTION.redactValue({ text })).toEqual({ text });
  });

  it('runs extra patterns after the built-in ones, whole match or the second group', () => {
    const custom = createRedactor({
      patterns: [
        { kind: 'internal-token', pattern: 'itk_[a-z0-9]{12}' },
        { kind: 'pin', pattern: '(pin=)([0-9]{4,})()', ignoreCase: true },
      ],
    });
    expect(custom.redactSync('use itk_abcdef123456 with PIN=98765')).toBe(
      'use [REDACTED:internal-token] with PIN=[REDACTED:pin]',
    );
    expect(custom.redactSync('DB_PASSWORD=abcdefgh')).toBe('DB_PASSWORD=[REDACTED:env-secret]');
    const only = createRedactor({ builtins: false, patterns: [{ kind: 'x', pattern: 'zzz' }] });
    expect(only.redactSync('DB_PASSWORD=abcdefgh zzz')).toBe('DB_PASSWORD=abcdefgh [REDACTED:x]');
  });

  it('refuses a pattern RE2 cannot compile and a malformed kind, as INVALID_ARGUMENT', () => {
    for (const pattern of [
      { kind: 'x', pattern: '(?=a)b' },
      { kind: 'x', pattern: '(' },
      { kind: 'Bad Kind', pattern: 'a' },
    ]) {
      let caught: unknown;
      try {
        createRedactor({ patterns: [pattern] });
      } catch (error) {
        caught = error;
      }
      expect(ScratchpadError.hasCode(caught, 'INVALID_ARGUMENT')).toBe(true);
    }
  });

  it('redacts every string of a JSON value, keys included, and leaves other values alone', async () => {
    const value = {
      ok: true,
      count: 3,
      content: 'DB_PASSWORD=abcdefgh',
      items: [{ header: 'Authorization: Bearer abcdefgh12345' }, null],
    };
    expect(await redactor.redactValue(value)).toEqual({
      ok: true,
      count: 3,
      content: 'DB_PASSWORD=[REDACTED:env-secret]',
      items: [{ header: 'Authorization: Bearer [REDACTED:bearer-token]' }, null],
    });
  });
});

describe('createRedactor: properties', () => {
  const secretish = fc.constantFrom(
    ...CORPUS_SECRETS.map((item) => item.text),
    ...CORPUS_LOOKALIKES.map((item) => item.text),
    '-----BEGIN RSA PRIVATE KEY-----',
    '-----END PRIVATE KEY-----',
    'Authorization: Bearer ',
    'KEY=',
    '://a:b@',
    '\\n',
    '"password": "',
  );
  const text = fc
    .array(
      fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ maxLength: 20 }), secretish),
      {
        maxLength: 12,
      },
    )
    .map((parts) => parts.join(' '));

  it('never throws, never grows past one marker per three characters, and is idempotent on blank-separated text', () => {
    fc.assert(
      fc.property(text, (input) => {
        const { text: output, counts } = redactor.scan(input);
        const found = Object.values(counts).reduce((sum, count) => sum + count, 0);
        expect(output.length).toBeLessThanOrEqual(input.length + 32 * found);
        expect(found).toBeLessThanOrEqual(Math.ceil(input.length / 3));
        expect(redactor.redactSync(output)).toBe(output);
      }),
      { numRuns: 300 },
    );
  });

  it('never leaves a secret it caught alone in the text, wherever it sits', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CORPUS_SECRETS),
        fc.string({ maxLength: 30 }).map((prefix) => prefix.replace(/[A-Za-z0-9+/=_-]+$/, '')),
        fc.string({ maxLength: 30 }).map((suffix) => suffix.replace(/^[A-Za-z0-9+/=_-]+/, '')),
        (item, prefix, suffix) => {
          const output = redactor.redactSync(`${prefix}\n${item.text}\n${suffix}`);
          expect(output).not.toContain(item.secret);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('handles pathological inputs in one pass (long runs that almost match)', () => {
    const inputs = [
      '-----BEGIN PRIVATE KEY-----'.repeat(20_000),
      `-----BEGIN PRIVATE KEY-----${'A'.repeat(500_000)}`,
      `${'A'.repeat(64)}\n`.repeat(10_000),
      'sk-'.repeat(100_000),
      'KEY='.repeat(100_000),
      `Authorization: ${'Bearer '.repeat(50_000)}`,
      `a://${':'.repeat(200_000)}`,
      '"password": "'.repeat(50_000),
    ];
    for (const input of inputs) expect(typeof redactor.redactSync(input)).toBe('string');
  });
});

describe('createRedactor: large text', () => {
  const secrets = CORPUS_SECRETS.filter((item) => !item.label.includes('cut'));
  const filler = `${'INFO 2026-11-24 worker served request in 12 ms\n'.repeat(400)}`;
  const large = Array.from(
    { length: 200 },
    (_, index) => `${filler}${secrets[index % secrets.length]?.text}\n`,
  ).join('');

  it('redacts window by window exactly as in one pass, with secrets spread over 50 windows', async () => {
    expect(large.length).toBeGreaterThan(3_500_000);
    const windowed = await redactor.redact(large);
    expect(windowed).toBe(redactor.redactSync(large));
    for (const item of secrets) expect(windowed).not.toContain(item.secret);
  }, 120_000);

  it('keeps the event loop free while it redacts 3.7 MB', async () => {
    const probe = await probeEventLoop(() => redactor.redact(large));
    expect(probe.worstBusyMs).toBeLessThan(TEST_STALL_BOUND_MS);
  }, 120_000);
});
