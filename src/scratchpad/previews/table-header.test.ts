import { describe, expect, it } from 'vitest';
import type { SampledLine } from './content-sample.js';
import { tableHeader } from './table-header.js';

function sampled(lines: string[]): SampledLine[] {
  return lines.map((text, index) => ({ number: index + 1, text, part: 'head' as const }));
}

describe('tableHeader', () => {
  it('finds the header above a rule, between two rules, or as a first line of capitalised names', () => {
    expect(tableHeader(sampled([' id | name ', '----+------', '  1 | ana']))).toEqual({ header: 0, rule: 1 });
    expect(
      tableHeader(sampled(['+----+------+', '| id | name |', '+----+------+', '|  1 | ana  |'])),
    ).toEqual({ header: 1, rule: 2 });
    expect(
      tableHeader(
        sampled([
          'NAME       READY   STATUS    RESTARTS   AGE',
          'web-1      1/1     Running   0          2d',
        ]),
      ),
    ).toEqual({
      header: 0,
    });
    expect(tableHeader(sampled(['just a line', 'and another']))).toBeUndefined();
  });
});
