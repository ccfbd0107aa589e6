import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createScratchpad } from '../../service/scratchpad.js';
import { createMemoryDriver } from '../../stores/memory/index.js';
import { splitTextLines } from './content-sample.js';
import { sampleEntry } from './entry-sample.js';

describe('sampleEntry', () => {
  it('reads a large stored entry in windows: head lines numbered from 1, tail lines from the end, middle lines real', async () => {
    const scratchpad = createScratchpad({ driver: createMemoryDriver() });
    const session = scratchpad.session('s');
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 20_000, max: 60_000 }),
        fc.integer({ min: 5, max: 80 }),
        fc.boolean(),
        async (count, width, finalNewline) => {
          const all = Array.from(
            { length: count },
            (_, index) => `${index + 1} ${'é'.repeat(index % width)}`,
          );
          const text = all.join('\n') + (finalNewline ? '\n' : '');
          const { entry } = await session.write(`e_${count}_${width}`, text);
          const { sample, head } = await sampleEntry(session, entry);
          expect(text.startsWith(head)).toBe(true);
          expect(sample.totalChars).toBe(entry.chars);
          const known = new Set(all);
          for (const line of sample.lines) {
            expect(known.has(line.text)).toBe(true);
            if (line.number === undefined) continue;
            const index = line.number > 0 ? line.number - 1 : all.length + line.number;
            expect(all[index]).toBe(line.text);
          }
          expect(sample.lines.at(-1)?.text).toBe(all.at(-1));
          if (entry.chars <= 768 * 1024) expect(splitTextLines(head)).toEqual(all);
          else expect(sample.complete).toBe(false);
        },
      ),
      { numRuns: 6 },
    );
    await scratchpad.close();
  }, 120_000);
});
