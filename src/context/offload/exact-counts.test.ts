import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { formatCount } from '../../core/format.js';
import { createScratchpad } from '../../service/scratchpad.js';
import { createMemoryDriver } from '../../stores/memory/index.js';
import { lineSignal } from '../previews/line-signals.js';
import { buildWholePreview, PREVIEW_BUILDERS } from '../previews/preview-registry.js';
import { salientPreview } from '../previews/salient-preview.js';
import { createOffloadPolicy } from './offload-policy.js';
import { createOffloader } from './offloader.js';

/**
 * The log: 60,000 lines, 5.4 MB, 1,622 ERROR lines and some WARN lines spread through it, most of them far
 * from the start and the end a preview samples.
 */
function bigLog(): string {
  const lines: string[] = [];
  for (let index = 0; index < 60_000; index++) {
    const time = `2026-04-26T${String(Math.floor(index / 3600) % 24).padStart(2, '0')}:${String(Math.floor(index / 60) % 60).padStart(2, '0')}:${String(index % 60).padStart(2, '0')}.${String(index % 1000).padStart(3, '0')}Z`;
    const worker = `[worker-${index % 16}]`;
    if (index % 37 === 11) {
      lines.push(
        `${time} ERROR ${worker} request id=${index} upstream reset by peer after ${index % 300} ms`,
      );
    } else if (index % 77 === 3) {
      lines.push(`${time} WARN ${worker} request id=${index} retried on replica ${index % 5} (slow)`);
    } else {
      lines.push(
        `${time} INFO ${worker} request id=${index} path=/items/${(index * 7919) % 100_000} done in ${index % 97} ms`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The preview's first line (what the output is), the one that carries its counts. */
function describeLine(preview: string): string {
  return preview.split('\n')[0] as string;
}

describe('offload preview of a big log: every count is exact or marked', () => {
  const text = bigLog();
  const lines = text.split('\n').slice(0, -1);
  const errors = lines.filter((line) => lineSignal(line)?.severity === 3).length;
  const warnings = lines.filter((line) => lineSignal(line)?.severity === 2).length;

  it('is the issue’s log: 60,000 lines, 5.4 MB, 1,622 ERROR lines', () => {
    expect(lines.length).toBe(60_000);
    expect(Buffer.byteLength(text) / 1e6).toBeGreaterThan(5.35);
    expect(Buffer.byteLength(text) / 1e6).toBeLessThan(5.45);
    expect(lines.filter((line) => line.includes(' ERROR ')).length).toBe(1622);
    expect(errors).toBe(1622);
    expect(warnings).toBeGreaterThan(700);
  });

  it('says the header’s line count, the exact error and warning counts, and [×N] over the whole entry', async () => {
    const scratchpad = createScratchpad({ driver: createMemoryDriver() });
    try {
      const offloader = createOffloader({ session: scratchpad.session('s1'), policy: createOffloadPolicy() });
      const outcome = await offloader.process({ tool: 'bash', result: text });
      if (!outcome.offloaded) throw new Error(`kept inline: ${outcome.reason}`);
      const header = outcome.text.split('\n')[0] as string;
      expect(header).toContain(`${formatCount(60_000)} lines`);
      const first = describeLine(outcome.preview);
      expect(first).toMatch(/^Text, 60,000 lines\b/);
      expect(first).toContain(`${formatCount(errors)} error lines`);
      expect(first).toContain(`${formatCount(warnings)} warning lines`);
      // The kinds are mined from the sample only: the number says so, with the sample and the whole size.
      expect(first).toMatch(/≈\d+ kinds \(estimated from [\d.]+ [KM]B of 5\.4 MB\)/);
      const standOuts = outcome.preview.split('Stands out ([×N]: N lines of that kind):\n')[1] ?? '';
      const errorLine = standOuts.split('\n').find((line) => line.includes(' ERROR '));
      expect(errorLine).toContain(`[×${formatCount(errors)}]`);
      const warningLine = standOuts.split('\n').find((line) => line.includes(' WARN '));
      expect(warningLine).toContain(`[×${formatCount(warnings)}]`);
      expect(outcome.preview).not.toMatch(/≥/);
    } finally {
      await scratchpad.close();
    }
  }, 60_000);

  const input = { kind: 'text' as const, text, bytes: Buffer.from(text), context: {} };

  it('without the whole-text tally, marks each count read from the sample as estimated, beside the sizes', () => {
    const preview = salientPreview(input).text;
    const first = describeLine(preview);
    expect(first).toMatch(
      /^Text, ≈[\d,]+ lines \(estimated from 786 KB of 5\.4 MB\) of ≈\d+ kinds \(estimated/,
    );
    expect(first).toMatch(
      /; ≈[\d,]+ error lines, ≈[\d,]+ warning lines \(estimated from 786 KB of 5\.4 MB\);/,
    );
    expect(preview).toContain('Stands out ([×N]: N lines of that kind; ≈ estimated from 786 KB of 5.4 MB):');
    expect(preview).toMatch(/\[×≈[\d,]+\]: 2026-04-26T00:00:11\.011Z ERROR/);
    // No count of the sample reads as a total: every number of the first line is a size or marked.
    for (const [number] of first.matchAll(
      /(?<![\d.,≈])\d[\d,]*(?![\d.,]* [KM]B)(?= (?:lines|kinds|error|warning))/g,
    )) {
      throw new Error(`unmarked count ${number} in: ${first}`);
    }
  });

  it('past the tally’s time budget, the line count stays exact and the level counts are marked as estimated', async () => {
    const preview = (await buildWholePreview(PREVIEW_BUILDERS.salient, input, { budgetMs: 0 })).text;
    expect(describeLine(preview)).toMatch(
      /^Text, 60,000 lines .*; ≈[\d,]+ error lines, ≈[\d,]+ warning lines \(estimated from 786 KB of 5\.4 MB\);/,
    );
    expect(preview).toMatch(/\[×≈[\d,]+\]: 2026-04-26T00:00:11\.011Z ERROR/);
  });

  it('past the shapes of signal line the tally keeps, [×N] is estimated while the level counts stay exact', async () => {
    const preview = (await buildWholePreview(PREVIEW_BUILDERS.salient, input, { maxShapes: 1 })).text;
    const first = describeLine(preview);
    expect(first).toMatch(/^Text, 60,000 lines\b/);
    expect(first).toContain(`${formatCount(errors)} error lines, ${formatCount(warnings)} warning lines;`);
    expect(preview).toContain('Stands out ([×N]: N lines of that kind; ≈ estimated from 786 KB of 5.4 MB):');
    expect(preview).toMatch(/\[×≈[\d,]+\]: 2026-04-26T00:00:11\.011Z ERROR/);
  });
});
