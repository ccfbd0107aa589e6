import { describe, expect, it } from 'vitest';
import { sampleContent } from './content-sample.js';
import { tableHeader } from './table-header.js';

const linesOf = (lines: string[]) => sampleContent(lines.join('\n')).lines;

describe('tableHeader', () => {
  it('finds the header above a rule, between two rules, or as a first line of capitalised names', () => {
    expect(tableHeader(linesOf([' id | name ', '----+------', '  1 | ana']))).toEqual({ header: 0, rule: 1 });
    expect(
      tableHeader(linesOf(['+----+------+', '| id | name |', '+----+------+', '|  1 | ana  |'])),
    ).toEqual({ header: 1, rule: 2 });
    expect(
      tableHeader(
        linesOf([
          'NAME       READY   STATUS    RESTARTS   AGE',
          'web-1      1/1     Running   0          2d',
        ]),
      ),
    ).toEqual({
      header: 0,
    });
    expect(tableHeader(linesOf(['just a line', 'and another']))).toBeUndefined();
  });
});
