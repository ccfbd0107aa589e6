import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maySignal } from './line-signals.js';
import { buildMachine, signalScanner } from './signal-scanner.js';

/** Indexes of the lines of `text` (split on `\n`) the scanner finds, scanning in calls of `step` characters. */
function foundLines(text: string, step: number): Set<number> {
  const scanner = signalScanner();
  const found = new Set<number>();
  for (let position = 0; position < text.length; ) {
    const hit = scanner.find(text, position, Math.min(text.length, position + step));
    if (hit === -1) {
      position += step;
      continue;
    }
    // The line holding the hit: a hit on a `\n` is in the line that newline ends.
    found.add(text.slice(0, hit).split('\n').length - 1);
    const newline = text.indexOf('\n', hit);
    position = newline === -1 ? text.length : newline + 1;
  }
  return found;
}

// One example of each alternative of the cheap signal test, in a case and with spaces of its own.
const ALTERNATIVES = [
  'Abort',
  'ALERT',
  'broken',
  'crit',
  'CANNOT',
  "can't",
  "couldn't",
  'could not',
  'corrupted',
  'Caused by',
  'exit code',
  'core dump',
  'Denied',
  'deprecated',
  'deadlock',
  'err',
  'EMERG',
  'Exception',
  'exit',
  'FAIL',
  'fatal',
  'Forbidden',
  'invalid',
  'illegal',
  'killed',
  'mismatch',
  'not ok',
  'not found',
  'no such',
  'not permitted',
  'no tests',
  'overflow',
  'out of memory',
  'oom-kill',
  'OOM_KILL',
  'panic',
  'refused',
  'rejected',
  'rc=1',
  'rc\u00e9',
  'SEVERE',
  'segmentation',
  'status404',
  'status=503',
  'status": 404',
  'Status\u00a0=\u00a0599',
  'traceback',
  'timed out',
  'TimeOut',
  'unhandled',
  'uncaught',
  'unable',
  'unexpected',
  'unreachable',
  'unresolved',
  'unauthorized',
  'violation',
  'Warn',
  'HTTP/1.1" 404',
  'http/2 500',
  'HTTP/1.0 403',
  'HTTP/2" 451',
  'HEAD 404',
  'GET 500',
  'post 401',
  'PUT 404',
  'patch 409',
  'DELETE 410',
  'OPTIONS 405',
  '✗',
  '✕',
  '✘',
  '<Fault',
  'E   assert',
  'x E y',
  'x\u3000w\u00a0',
  'F/',
  'e\t',
];

describe('signalScanner', () => {
  it('finds each alternative of the cheap signal test, wherever it stands in a line', () => {
    for (const alternative of ALTERNATIVES) {
      expect(maySignal(alternative), alternative).toBe(true);
      for (const line of [alternative, `x ${alternative} y`, `[${alternative}]`, `ok\n${alternative}\nok`]) {
        const index = line.startsWith('ok\n') ? 1 : 0;
        if (!maySignal(line.split('\n')[index] as string)) continue;
        expect(foundLines(line, 1 << 20).has(index), JSON.stringify(line)).toBe(true);
        expect(foundLines(line, 1).has(index), JSON.stringify(line)).toBe(true);
      }
    }
  });

  it('finds every line the signal test can flag, across any cut of the scan, and skips plain lines', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        ...ALTERNATIVES,
        ' ',
        '\t',
        '\u00a0',
        '\r',
        'a',
        'E',
        'w',
        '4',
        '0',
        '/',
        '"',
        '.',
        '-',
        'é',
      ),
      fc.string({ maxLength: 6 }),
    );
    const line = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join('').replaceAll('\n', ' '));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.integer({ min: 1, max: 40 }), (lines, step) => {
        const text = lines.join('\n');
        const found = foundLines(text, step);
        lines.forEach((content, index) => {
          if (maySignal(content)) expect(found.has(index), JSON.stringify(content)).toBe(true);
        });
      }),
      { numRuns: 1000 },
    );
    expect(foundLines('INFO served in 12 ms\nall good here\n', 1 << 20).size).toBe(0);
  });

  it('refuses a trigger it cannot read', () => {
    expect(() => buildMachine(['a\\b'])).toThrow(/escape/);
    expect(() => buildMachine(['[ab'])).toThrow(/Unclosed/);
    expect(() => buildMachine(['\u00a0x'])).toThrow(/space/);
  });
});
