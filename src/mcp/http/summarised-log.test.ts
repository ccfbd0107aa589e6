import { describe, expect, it } from 'vitest';
import { createSummarisedLog } from './summarised-log.js';

describe('createSummarisedLog', () => {
  it('writes the first of a flood in full and the rest as one count with the last', () => {
    const lines: string[] = [];
    const log = createSummarisedLog({
      log: (line) => lines.push(line),
      prefix: 'p: ',
      what: 'requests refused',
    });
    for (let index = 0; index < 10_000; index++) log(`refused #${index}`);
    expect(lines).toEqual(['p: refused #0']);
    log.flush();
    expect(lines).toEqual([
      'p: refused #0',
      'p: 9999 more requests refused within 60 s of the one above, not each written (the last: refused #9999)',
    ]);
    log.flush();
    expect(lines).toHaveLength(2);
    log('refused again');
    expect(lines.at(-1)).toBe('p: refused again');
    log.flush();
  });

  it('cuts a long message and says how long it was', () => {
    const lines: string[] = [];
    const log = createSummarisedLog({
      log: (line) => lines.push(line),
      prefix: '',
      what: 'x',
      maxMessageChars: 5,
    });
    log('abcdefghij');
    log.flush();
    expect(lines).toEqual(['abcde… (10 chars)']);
  });
});
