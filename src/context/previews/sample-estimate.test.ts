import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { salientPreview } from './salient-preview.js';

function input(text: string) {
  return { kind: 'text' as const, text, bytes: Buffer.from(text), context: {} };
}

/** A CSV too long to read whole: 40,000 rows, a category column. */
function weatherCsv(rows: number): string {
  const lines = ['date,precipitation,temp_max,weather'];
  for (let index = 0; index < rows; index++) {
    const weather = index % 3 === 0 ? 'rain' : index % 3 === 1 ? 'sun' : 'fog';
    lines.push(
      `2012-01-${String((index % 28) + 1).padStart(2, '0')},${(index % 50) / 10},${index % 35},${weather}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

describe('a preview read from a sample marks the counts it states', () => {
  it("a CSV's rows and category counts are estimates beside the sample and whole sizes", () => {
    const text = weatherCsv(40_000);
    const preview = salientPreview(input(text)).text;
    expect(preview).toMatch(
      /^CSV, 4 columns, ≈[\d,]+ rows \(estimated from [\d.]+ KB of [\d.]+ [KM]B\), header on line 1/,
    );
    expect(preview).toMatch(/ {2}weather: "\w+" ≈[\d,]+, "\w+" ≈[\d,]+, "\w+" ≈[\d,]+/);
    expect(preview).not.toMatch(/"(?:rain|sun|fog)" \d/);
  });

  it('a CSV read whole states exact counts, unmarked', () => {
    const text = weatherCsv(300);
    const preview = salientPreview(input(text)).text;
    expect(preview).toMatch(/^CSV, 4 columns, 300 rows, header on line 1/);
    expect(preview).toContain('  weather: "rain" 100, "sun" 100, "fog" 100');
  });

  it('a CSV read whole past the rows its columns summarize counts every row and marks the column counts', () => {
    const text = weatherCsv(9000);
    const preview = salientPreview(input(text)).text;
    expect(preview).toMatch(
      /^CSV, 4 columns, 9,000 rows, header on line 1; column counts ≈ estimated from its first 5,000 rows/,
    );
    expect(preview).toContain('  weather: "rain" ≈3,000, "sun" ≈3,000, "fog" ≈3,000');
  });

  it('a JSON array longer than the items read states its counts as lower bounds, and says why', () => {
    const items = Array.from({ length: 2500 }, (_, index) => ({
      id: index,
      status: index % 2 === 0 ? 'ok' : 'failed',
      ...(index % 10 === 0 ? { note: 'retried' } : {}),
    }));
    const preview = salientPreview(input(JSON.stringify({ items }, null, 2))).text;
    expect(preview).toContain(
      'JSON object, 1 key (counts marked ≥ are lower bounds: long arrays are read to their first 1,000 items):',
    );
    expect(preview).toContain('  items: array[2,500] of object');
    expect(preview).toContain('    status: string ("ok" ≥500, "failed" ≥500)');
    expect(preview).toContain('    id: number (0…999 in the items read)');
    expect(preview).toContain('    note?: string ("retried" ≥100) in 100 of the 1,000 read');
  });

  it("an XML document's element counts are estimates when it was sampled", () => {
    const cases = Array.from(
      { length: 30_000 },
      (_, index) =>
        `  <testcase name="case ${index}" classname="suite.${index % 40}" time="0.${index % 9}"></testcase>`,
    );
    const text = `<?xml version="1.0"?>\n<testsuite name="all">\n${cases.join('\n')}\n</testsuite>\n`;
    const preview = salientPreview(input(text)).text;
    expect(preview).toMatch(/outline \(elements × count, ≥: counted in [\d.]+ KB of [\d.]+ MB\)/);
    expect(preview).toContain('  testsuite ×≥1 (first on line 2)');
    expect(preview).toMatch(/ {4}testcase ×≥[\d,]+ \(first on line 3\)/);
  });
});
