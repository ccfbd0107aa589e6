import { InvalidArgumentError } from 'commander';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineRange } from '../cli/parse-number.js';
import { parseLines } from '../tools/default/read-tool.js';
import { ScratchpadError } from './errors.js';
import { parseLineRange } from './line-range.js';

const line = fc.integer({ min: -1_000_000, max: 1_000_000 }).filter((value) => value !== 0);

describe('parseLineRange', () => {
  it('reads every spelling', () => {
    expect(parseLineRange('3:7')).toEqual({ start: 3, end: 7 });
    expect(parseLineRange('120:')).toEqual({ start: 120 });
    expect(parseLineRange('-50:')).toEqual({ start: -50 });
    expect(parseLineRange(':2')).toEqual({ start: 1, end: 2 });
    expect(parseLineRange('42')).toEqual({ start: 42, end: 42 });
    expect(parseLineRange(' 3 : 7 ')).toEqual({ start: 3, end: 7 });
  });

  it('rejects what is not a range, and line 0', () => {
    for (const text of [
      '',
      ' ',
      ':',
      '0',
      '0:3',
      '3:0',
      '-0:',
      'a:b',
      '1:2:3',
      '1.5:2',
      '99999999999999999999:',
    ])
      expect(() => parseLineRange(text), text).toThrow(ScratchpadError);
  });

  it('property: a formatted range parses back', () => {
    fc.assert(
      fc.property(line, fc.option(line, { nil: undefined }), (start, end) => {
        const text = end === undefined ? `${start}:` : `${start}:${end}`;
        expect(parseLineRange(text)).toEqual(end === undefined ? { start } : { start, end });
      }),
    );
  });

  it('property: the CLI and the tool accept and reject the same texts, with the same range', () => {
    const texts = fc.oneof(
      fc.string({ unit: fc.constantFrom('0', '1', '2', '-', ':', ' ', '9', 'x'), maxLength: 8 }),
      fc.tuple(line, line).map(([a, b]) => `${a}:${b}`),
    );
    fc.assert(
      fc.property(texts, (text) => {
        let fromTool: unknown;
        try {
          const { type: _type, ...range } = parseLines(text) as {
            type: 'lines';
            start: number;
            end?: number;
          };
          fromTool = range;
        } catch (error) {
          expect(error).toBeInstanceOf(ScratchpadError);
          fromTool = 'rejected';
        }
        let fromCli: unknown;
        try {
          fromCli = lineRange(text);
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidArgumentError);
          fromCli = 'rejected';
        }
        expect(fromCli).toEqual(fromTool);
      }),
    );
  });
});
