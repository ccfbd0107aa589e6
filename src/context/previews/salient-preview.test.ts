import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PreviewContext } from './preview-builder.js';
import { salientBudget, salientPreview } from './salient-preview.js';

function input(text: string, context: PreviewContext = {}) {
  return { kind: 'text' as const, text, bytes: Buffer.from(text), context };
}

/** A fixture written for these tests: outputs of kinds the dev corpus of bench:previews does not hold. */
function fixture(name: string): string {
  return readFileSync(new URL(`../../../test/fixtures/previews/${name}`, import.meta.url), 'utf8');
}

/** The log: every line starts with a timestamp, one ERROR deep inside. */
function timestampedLog(lines: number, errorAt: number): string {
  return Array.from({ length: lines }, (_, index) => {
    const time = `2026-04-26T${String(Math.floor(index / 3600) % 24).padStart(2, '0')}:${String(Math.floor(index / 60) % 60).padStart(2, '0')}:${String(index % 60).padStart(2, '0')}Z`;
    return index + 1 === errorAt
      ? `${time} ERROR request id=31337 path=/api/checkout pq: deadlock detected`
      : `${time} INFO request id=${index} path=/api/cart user=u${index % 97} status=200 duration=${index % 90}ms`;
  }).join('\n');
}

/** The JSON API response: 800 items and a cursor, as the text a tool returns. */
function apiResponse(): string {
  const data = Array.from({ length: 800 }, (_, index) => ({
    id: `itm_${String(index).padStart(5, '0')}`,
    title: `Item ${index}`,
    price: 3 + ((index * 7919) % 9000) / 100,
    seller: { id: `sel_${index % 40}`, rating: 3 + (index % 20) / 10 },
    status: index === 613 ? 'discontinued' : 'active',
  }));
  return JSON.stringify({ data, next_cursor: 'eyJwYWdlIjoyfQ', total: 12450 }, null, 2);
}

describe('salientPreview: what the output is', () => {
  it("shows a log's records and its ERROR line wherever the level sits, with line numbers and a grep for it", () => {
    const preview = salientPreview(input(timestampedLog(6000, 3137), { task: 'Why did checkout fail?' }));
    expect(preview.text).toMatch(/^Text, 6,000 lines of \d+ kinds \(repetitive, like a log\); 1 error line:/);
    expect(preview.text).toContain(
      'First lines:\n  1: 2026-04-26T00:00:00Z INFO request id=0 path=/api/cart',
    );
    expect(preview.text).toContain(
      '  3137: 2026-04-26T00:52:16Z ERROR request id=31337 path=/api/checkout pq: deadlock detected',
    );
    expect(preview.reads?.[0]).toEqual({ regex: 'ERROR' });
    expect(preview.reads).toContainEqual({ lines: '3132:3161' });
    expect(preview.text.length).toBeLessThanOrEqual(salientBudget(timestampedLog(6000, 3137).length));
  });

  it("shows a JSON response's key paths with types and counts, one example item and the value that stands out", () => {
    const text = apiResponse();
    const preview = salientPreview(input(text));
    expect(preview.text).toContain('JSON object, 3 keys:');
    expect(preview.text).toContain('  data: array[800] of object');
    expect(preview.text).toMatch(/ {4}price: number \(3…92\.\d+\)/);
    expect(preview.text).toContain('    seller: object');
    expect(preview.text).toContain('  next_cursor: string ("eyJwYWdlIjoyfQ")');
    expect(preview.text).toContain('Example data[0]: {"id":"itm_00000","title":"Item 0"');
    const line = text.split('\n').findIndex((candidate) => candidate.includes('"discontinued"')) + 1;
    expect(preview.text).toContain(`  ${line}:       "status": "discontinued"`);
    // The cursor is data, not a name: the index leaves it out.
    expect(preview.text.slice(preview.text.indexOf('New names'))).not.toContain('eyJwYWdlIjoyfQ');
  });

  it("shows a CSV's header, its columns' ranges and categories, and a row", () => {
    const rows = Array.from({ length: 300 }, (_, index) => {
      const weather = index === 123 ? 'hail' : ['sun', 'rain', 'fog'][index % 3];
      return `2012-01-${String((index % 28) + 1).padStart(2, '0')},${(index % 17) / 2},${weather}`;
    });
    const preview = salientPreview(input(['date,precipitation,weather', ...rows].join('\n')));
    expect(preview.text).toContain(
      'CSV, 3 columns, 300 rows, header on line 1:\n  date,precipitation,weather',
    );
    expect(preview.text).toContain('  precipitation: number (0…8)');
    expect(preview.text).toContain('  weather: "rain" 100, "fog" 100, "sun" 99, "hail" 1');
    expect(preview.text).toContain('  2: 2012-01-01,0,sun');
    expect(preview.text).toContain('Stands out ([×N]: N lines of that kind):\n  125: 2012-01-12,2,hail');
  });
});

describe('salientPreview: outputs of other kinds (held-out fixtures)', () => {
  it('compiler output: the error lines with their locations, and the failing make steps', () => {
    const preview = salientPreview(input(fixture('gcc-build.txt')));
    expect(preview.text).toContain(
      "  131: src/parser.c:142:12: error: 'endptr' undeclared (first use in this function); did you mean 'end_ptr'?",
    );
    expect(preview.text).toContain(
      "  136: src/parser.c:157:5: error: implicit declaration of function 'parse_exponent'",
    );
    expect(preview.text).toContain('make: *** [Makefile:12: all] Error 2');
    expect(preview.reads?.[0]).toMatchObject({ regex: expect.stringContaining('error:') });
  });

  it('HTML: the title, the headings and the element outline', () => {
    const preview = salientPreview(input(fixture('inventory.html')));
    expect(preview.text).toMatch(/^HTML titled "Acme Parts — Inventory report", root <html>; outline/);
    expect(preview.text).toContain(
      '  h1 Inventory report (line 14)\n    h2 Summary (line 16)\n    h2 Parts (line 21)',
    );
    expect(preview.text).toContain('  html ×1 (first on line 2)');
  });

  it('SQL result table: the header, the columns and the row with the rare status', () => {
    const preview = salientPreview(input(fixture('psql-result.txt')));
    expect(preview.text).toContain(' order_id | customer_id |  status   |   total   |       created_at');
    expect(preview.text).toContain('  status: "shipped" 60, "delivered" 39, "pending" 20, "refunded" 1');
    expect(preview.text).toMatch(/ {2}79: +1077 \| +211 \| refunded/);
  });

  it('git log: the first commit, and the merge and the revert that happen once', () => {
    const preview = salientPreview(input(fixture('git-log.txt')));
    expect(preview.text).toMatch(/ {2}1: commit [0-9a-f]{40}/);
    expect(preview.text).toContain('  104: Merge: 1a2b3c4 5d6e7f8');
    expect(preview.text).toContain('  144:     Revert "Speed up index build"');
  });

  it('git diff: the files it touches, and families of new names collapsed', () => {
    const preview = salientPreview(input(fixture('git-diff.txt')), { maxChars: 1200 });
    expect(preview.text).toContain('Outline:\n  1: diff --git a/src/pager.py b/src/pager.py');
    expect(preview.text).toContain('diff --git a/tests/test_case_0.py b/tests/test_case_0.py');
    expect(preview.text).toContain('test_page_0 ×12');
  });

  it('file listing: the directory and the core dump among the regular files', () => {
    const preview = salientPreview(input(fixture('ls-listing.txt')));
    expect(preview.text).toContain('  1: total 2112');
    expect(preview.text).toContain('  36: drwxr-xr-x 2 ana staff    4096 Mar  3 09:12 archive');
    expect(preview.text).toContain('  51: -rwxr-xr-x 1 root root  1048576 Mar  3 09:13 core.12345');
  });

  it('Android logcat: the FATAL EXCEPTION and the exception line of the crash', () => {
    const preview = salientPreview(input(fixture('android-logcat.txt')));
    expect(preview.text).toContain(
      '  151: 03-02 10:17:31.500  4211  4211 E AndroidRuntime: FATAL EXCEPTION: main',
    );
    expect(preview.text).toContain(
      'E AndroidRuntime: java.lang.NullPointerException: Attempt to invoke virtual method',
    );
    expect(preview.reads?.[0]).toMatchObject({ regex: expect.stringContaining('FATAL') });
  });

  it('HPC job (Slurm): the out-of-memory kill and the cancelled step', () => {
    const preview = salientPreview(input(fixture('slurm-job.txt')));
    expect(preview.text).toContain(
      '  205: slurmstepd: error: Detected 1 oom_kill event in StepId=884213.0. Some of the step tasks have been OOM Killed.',
    );
    expect(preview.text).toContain('  206: srun: error: cn043: task 2: Out Of Memory');
    expect(preview.text).toContain('CANCELLED AT 2026-03-02T02:41:17');
  });
});

describe('salientPreview: what stands out and what is new', () => {
  it('shows a failing test with the test it belongs to, and the failure count', () => {
    const tap = [
      'TAP version 13',
      ...Array.from({ length: 40 }, (_, index) => `ok ${index + 1} - parses case ${index}`),
      'not ok 41 - parses the empty header',
      '  ---',
      '  duration_ms: 0.4',
      "  error: 'expected a name'",
      '  ...',
      '# pass 40',
      '# fail 1',
    ].join('\n');
    const preview = salientPreview(input(tap), { maxChars: 2000 });
    const standsOut = preview.text.slice(preview.text.indexOf('Stands out'));
    expect(standsOut).toContain(
      "  42: not ok 41 - parses the empty header\n  45:   error: 'expected a name'",
    );
    expect(standsOut).toContain('  48: # fail 1');
  });

  it('lists the names the output introduces, not the ones the conversation holds, nor ids and encoded pieces', () => {
    const lines = [
      'def separability_matrix(transform):',
      '    return _coord_matrix(transform, noutputs)',
      'session 0x14ede63a5a70048 block blk_38865049064139660 token eyJwYWdlIjoyfQeyJhbGciOi',
      'def _compute_mapping(model, position):',
    ];
    const context: PreviewContext = {
      task: 'Fix separability_matrix.',
      history: [{ observation: 'noutputs' }],
    };
    const preview = salientPreview(input(lines.join('\n'), context), { maxChars: 1000 });
    expect(preview.text).toContain('_coord_matrix');
    expect(preview.text).toContain('_compute_mapping');
    const index = preview.text.slice(preview.text.indexOf('New names'));
    expect(index).not.toContain('separability_matrix');
    expect(index).not.toContain('0x14ede63a5a70048');
    expect(index).not.toContain('blk_38865049064139660');
    expect(index).not.toContain('eyJwYWdlIjoyfQeyJhbGciOi');
  });

  it('reads a long output from a bounded sample and says so, numbering the tail from the end', () => {
    const text = `${timestampedLog(40_000, 0)}\n2026-04-27T00:00:00Z FATAL out of memory`;
    const preview = salientPreview(input(text));
    expect(preview.text).toMatch(/read from a 786 KB sample of [\d.]+ MB/);
    expect(preview.text).toContain('  -1: 2026-04-27T00:00:00Z FATAL out of memory');
  });

  it('stays within its budget on any input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000 }), fc.integer({ min: 0, max: 2000 }), (text, maxChars) => {
        expect(salientPreview(input(text), { maxChars }).text.length).toBeLessThanOrEqual(maxChars);
      }),
      { numRuns: 200 },
    );
  });

  it('sizes itself by the output: 12% of it, from 120 to 5,000 characters', () => {
    expect(salientBudget(500)).toBe(120);
    expect(salientBudget(20_000)).toBe(2400);
    expect(salientBudget(5_000_000)).toBe(5000);
  });
});
