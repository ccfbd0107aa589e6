import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { indexingProgressLine } from './indexing-progress-line.js';

/** A stream that says it is (or is not) a terminal and keeps what was written to it. */
function stderr(terminal: boolean): { stream: PassThrough; written: () => string } {
  const stream = new PassThrough();
  Object.assign(stream, { isTTY: terminal });
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, written: () => Buffer.concat(chunks).toString('utf8') };
}

describe('indexingProgressLine', () => {
  it('rewrites one line on a terminal and erases it at the end', async () => {
    const { stream, written } = stderr(true);
    const line = indexingProgressLine(stream);
    line.update({ done: 1_600_000, total: 419_000_000 });
    line.update({ done: 419_000_000, total: 419_000_000 });
    line.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(written()).toBe(
      '\r\x1b[2Kindexing for search: 0% (1.6 MB of 419 MB), Ctrl-C to stop' +
        '\r\x1b[2Kindexing for search: 100% (419 MB of 419 MB), Ctrl-C to stop' +
        '\r\x1b[2K',
    );
  });

  it('prints nothing when the session is indexed already, or when stderr is not a terminal', async () => {
    const indexed = stderr(true);
    const quiet = indexingProgressLine(indexed.stream);
    quiet.update({ done: 5, total: 5 });
    quiet.end();
    const piped = stderr(false);
    const silent = indexingProgressLine(piped.stream);
    silent.update({ done: 1, total: 5 });
    silent.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(indexed.written()).toBe('');
    expect(piped.written()).toBe('');
  });
});
