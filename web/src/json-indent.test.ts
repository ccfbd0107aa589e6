import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indentJson, prettyJson } from './json-indent.js';

const strip = (text: string) => text.replace(/\s+/g, '');

describe('indentJson', () => {
  it('indents whole documents like JSON.stringify does, for any JSON value (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const compact = JSON.stringify(value);
        expect(JSON.parse(indentJson(compact))).toEqual(JSON.parse(compact));
      }),
    );
  });

  it('changes nothing but whitespace in any slice of a document, even one cut inside a string (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), fc.nat(), (value, a, b) => {
        const compact = JSON.stringify(value, null, 1);
        const start = a % (compact.length + 1);
        const slice = compact.slice(start, start + (b % (compact.length + 1)));
        expect(strip(indentJson(slice))).toBe(strip(slice));
      }),
    );
  });

  it('leaves strings alone, escaped quotes and brackets included', () => {
    expect(indentJson('{"a":"x, {y}: \\"z\\"","b":[1,2]}')).toBe(
      '{\n  "a": "x, {y}: \\"z\\"",\n  "b": [\n    1,\n    2\n  ]\n}',
    );
    expect(prettyJson('{"a":1}')).toEqual({ text: '{\n  "a": 1\n}', whole: true });
    expect(prettyJson('"a":1},{"b":').whole).toBe(false);
  });
});
