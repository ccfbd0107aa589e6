import { describe, expect, it } from 'vitest';
import { sampleContent } from './content-sample.js';
import { taskLines } from './task-lines.js';

const linesOf = (lines: string[]) => sampleContent(lines.join('\n')).lines;

describe('taskLines', () => {
  it("finds the lines with the task's rarer words, the ones naming the thing itself first", () => {
    const listing = linesOf([
      'ii  adduser        3.134        all     add and remove users and groups',
      'ii  libcurl4       7.88.1       amd64   easy-to-use client-side URL transfer library (OpenSSL flavour)',
      'ii  libpq5         15.20-0      amd64   PostgreSQL C client library',
      ...Array.from({ length: 60 }, (_, index) => `ii  libthing${index}  1.0  amd64  some shared library`),
      'ii  openssl        3.0.19-1     amd64   Secure Sockets Layer toolkit',
    ]);
    const found = taskLines(listing, 'Which PostgreSQL client library and OpenSSL versions are installed?');
    expect(found.slice(0, 3)).toEqual([2, 63, 1]);
  });

  it('finds nothing without a task, or when every task word is everywhere', () => {
    const lines = linesOf(Array.from({ length: 50 }, (_, index) => `request ${index} served`));
    expect(taskLines(lines, undefined)).toEqual([]);
    expect(taskLines(lines, 'Which request was served?')).toEqual([]);
  });
});
