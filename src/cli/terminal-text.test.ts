import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { isTerminal, neutraliseControlCharacters, textForStdout } from './terminal-text.js';

const hostile = 'before\u001b]52;c;aGVsbG8=\u0007 \u001b[2J\u009b31m\r\u007f\u0000end\n\tnext line';

describe('neutraliseControlCharacters', () => {
  it('shows ESC, BEL, CSI 0x9b, CR, DEL and NUL as ?, keeps tab and newline and the rest of the text', () => {
    expect(neutraliseControlCharacters(hostile)).toBe('before?]52;c;aGVsbG8=? ?[2J?31m???end\n\tnext line');
  });

  it('leaves no character of C0, DEL or C1 but tab and newline', () => {
    const all = Array.from({ length: 0xa0 }, (_, code) => String.fromCharCode(code)).join('');
    const shown = neutraliseControlCharacters(all);
    expect(shown.length).toBe(all.length);
    for (const character of shown) {
      const code = character.charCodeAt(0);
      const control = code < 0x20 || (code >= 0x7f && code <= 0x9f);
      if (control) expect(['\t', '\n']).toContain(character);
    }
  });

  it('leaves text without control characters as it is, non-ASCII included', () => {
    expect(neutraliseControlCharacters('Ciao, città — 日本 🙂')).toBe('Ciao, città — 日本 🙂');
  });
});

describe('textForStdout', () => {
  it('neutralises on a terminal', () => {
    expect(textForStdout(hostile, { terminal: true, raw: false })).toBe(neutraliseControlCharacters(hostile));
  });

  it('keeps the exact characters for a pipe', () => {
    expect(textForStdout(hostile, { terminal: false, raw: false })).toBe(hostile);
  });

  it('keeps the exact characters on a terminal with --raw', () => {
    expect(textForStdout(hostile, { terminal: true, raw: true })).toBe(hostile);
    expect(textForStdout(hostile, { terminal: false, raw: true })).toBe(hostile);
  });
});

describe('isTerminal', () => {
  it('is true only for a stream Node marks as a TTY', () => {
    const pipe = new PassThrough();
    expect(isTerminal(pipe)).toBe(false);
    expect(isTerminal(Object.assign(new PassThrough(), { isTTY: true }))).toBe(true);
  });
});
