import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sampleContent } from './content-sample.js';
import { rareCategories, readDelimited, splitDelimited } from './delimited-text.js';

const linesOf = (text: string) => sampleContent(text).lines;

describe('readDelimited', () => {
  it('reads a CSV with its header, quoted fields, numbers and categories', () => {
    const rows = Array.from(
      { length: 40 },
      (_, index) => `${index},"Smith, ${index}",${index % 2 ? 'open' : 'closed'}`,
    );
    const read = readDelimited(linesOf(['id,name,state', ...rows].join('\n')));
    expect(read).toMatchObject({ delimiter: ',', label: 'CSV', headerIndex: 0, rows: 40 });
    expect(read?.columns.map((column) => column.name)).toEqual(['id', 'name', 'state']);
    expect(read?.columns[0]).toMatchObject({ numbers: 40, min: 0, max: 39 });
    expect(read?.columns[1]?.example).toBe('Smith, 0');
    expect([...(read?.columns[2]?.categories ?? [])]).toEqual([
      ['closed', 20],
      ['open', 20],
    ]);
  });

  it('does not take log lines that share a comma or a semicolon for rows', () => {
    const log = Array.from(
      { length: 30 },
      (_, index) => `2015-07-29 17:41:${index},747 - INFO [QuorumPeer] - Notification time out: ${index}`,
    );
    expect(readDelimited(linesOf(log.join('\n')))).toBeUndefined();
    const syslog = Array.from(
      { length: 30 },
      (_, index) =>
        `Jun 14 15:16:0${index % 10} combo sshd[${index}]: authentication failure; logname= uid=0 rhost=1.2.3.4`,
    );
    expect(readDelimited(linesOf(syslog.join('\n')))).toBeUndefined();
  });

  it('finds the rare value of a category', () => {
    const rows = Array.from({ length: 200 }, (_, index) => `${index},${index === 50 ? 'hail' : 'sun'}`);
    const read = readDelimited(linesOf(['day,weather', ...rows].join('\n')));
    expect(rareCategories(read?.columns[1] as never, read?.rows ?? 0)).toEqual(['hail']);
  });
});

describe('splitDelimited', () => {
  it('splits what RFC 4180 quoting joined', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string().map((field) => field.replace(/[\r\n]/g, '')),
          { minLength: 1, maxLength: 8 },
        ),
        (fields) => {
          const line = fields
            .map((field) => (/[",]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field))
            .join(',');
          const expected = fields.map((field) =>
            /[",]/.test(field) || !field.startsWith(' ') ? field : field,
          );
          expect(splitDelimited(line, ',')).toEqual(expected);
        },
      ),
    );
  });
});
