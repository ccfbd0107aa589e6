import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitSections } from './preview-sections.js';

describe('fitSections', () => {
  it('gives each section its minimum in priority order, grows them in turn, and shows them in display order', () => {
    const sections = [
      { title: 'A:', lines: [{ text: 'a1' }, { text: 'a2' }, { text: 'a3' }], min: 1 },
      { title: 'B:', lines: [{ text: 'b1' }, { text: 'b2', rank: -1 }], min: 1 },
      { title: '', lines: [{ text: 'c1' }], min: 0 },
    ];
    expect(fitSections(sections, 1000, [2, 1, 0])).toBe('c1\nB:\nb1\nb2\nA:\na1\na2\na3');
    // 'A:\na1' (5) + '\nB:\nb2' (6): the best-ranked line of B first; nothing else fits in 13.
    expect(fitSections(sections, 13)).toBe('A:\na1\nB:\nb2');
    expect(fitSections(sections, 0)).toBe('');
  });

  it('never goes over its budget', () => {
    const line = fc.record({
      text: fc.string({ maxLength: 30 }),
      rank: fc.option(fc.integer(), { nil: undefined }),
    });
    const section = fc.record({
      title: fc.string({ maxLength: 10 }),
      lines: fc.array(line, { maxLength: 8 }),
      min: fc.nat(4),
      max: fc.option(fc.nat(6), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(section, { maxLength: 6 }), fc.nat(400), (sections, budget) => {
        expect(fitSections(sections, budget).length).toBeLessThanOrEqual(budget);
      }),
    );
  });
});
