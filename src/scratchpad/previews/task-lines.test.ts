import { describe, expect, it } from 'vitest';
import type { SampledLine } from './content-sample.js';
import { taskLines } from './task-lines.js';

function sampled(lines: string[]): SampledLine[] {
  return lines.map((text, index) => ({ number: index + 1, text, part: 'head' as const }));
}

describe('taskLines', () => {
  it("finds the lines with the task's rarer words, the ones naming the thing itself first", () => {
    const listing = sampled([
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
    const lines = sampled(Array.from({ length: 50 }, (_, index) => `request ${index} served`));
    expect(taskLines(lines, undefined)).toEqual([]);
    expect(taskLines(lines, 'Which request was served?')).toEqual([]);
  });
});
