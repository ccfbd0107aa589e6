import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { lineSignal } from '../src/context/previews/line-signals.js';
import { builtCli } from './helpers/built-cli.js';

const root = fileURLToPath(new URL('../', import.meta.url));
// The scorer is plain JavaScript under bench/; imported by path so its functions are tested as the bench runs them.
const scoringPath = join(root, 'bench/lib/preview-scoring.js');
// biome-ignore lint/suspicious/noExplicitAny: an untyped JavaScript module.
let scoring: any;
// biome-ignore lint/suspicious/noExplicitAny: an untyped JavaScript module.
let counting: any;

beforeAll(async () => {
  builtCli();
  scoring = await import(scoringPath);
  counting = await import(join(root, 'bench/lib/preview-counts.js'));
}, 120_000);

const LOG = [
  '2026-04-26T18:22:00Z INFO request id=1 served',
  '2026-04-26T18:22:01Z ERROR request id=31337 deadlock detected\r',
  '{"dist-tags": {"latest": "7.0.2"}, "count":1707}',
].join('\n');

describe('bench:previews scorer', () => {
  it('counts a string as visible verbatim or once whitespace is removed on both sides', () => {
    const content = scoring.outputContent(LOG);
    expect(scoring.answerVisible('"count": 1707', 'x {"count":1707} y', content)).toBe(true);
    expect(scoring.answerVisible('"count":1708', 'x {"count":1707} y', content)).toBe(false);
  });

  it('counts a line only when one complete original line is visible (a clipped one does not count)', () => {
    const content = scoring.outputContent(LOG);
    const answer = { line: 'ERROR request id=\\d+ deadlock detected$' };
    expect(
      scoring.answerVisible(
        answer,
        '  2: 2026-04-26T18:22:01Z ERROR request id=31337 deadlock detected',
        content,
      ),
    ).toBe(true);
    expect(
      scoring.answerVisible(
        answer,
        '  2: 2026-04-26T18:22:01Z ERROR request id=31337 dead… [+9 chars]',
        content,
      ),
    ).toBe(false);
    expect(scoring.answerVisible(answer, 'ERROR request id=31337 deadlock detected', content)).toBe(false);
  });

  it('counts a key shown as a JSON key or a key path, not a longer key that starts with it', () => {
    const content = scoring.outputContent(LOG);
    expect(scoring.answerVisible({ key: 'latest' }, '{"latest": "7.0.2"}', content)).toBe(true);
    expect(scoring.answerVisible({ key: 'latest' }, '  dist-tags.latest: string', content)).toBe(true);
    expect(scoring.answerVisible({ key: 'dist' }, '  dist-tags: object', content)).toBe(false);
    expect(scoring.answerVisible({ any: [{ key: 'nope' }, '7.0.2'] }, '7.0.2', content)).toBe(true);
  });

  it("decodes a JSON observation's strings, as a model reads them", () => {
    const observation = JSON.stringify({ summary: 'line one\n"quoted" line two' });
    expect(scoring.visibleText(observation)).toContain('"quoted" line two');
  });

  it('finds the calls an observation spells out and the question words it shows', () => {
    const observation =
      'Read more: scratchpad_read {"name": "bash_1", "regex": "ERROR"} or {"name": "bash_1", "lines": "1:20"} or {"name": "other", "lines": "1:2"}';
    expect(scoring.suggestedCalls(observation, { name: 'bash_1', id: 'x' })).toEqual([
      { name: 'bash_1', regex: 'ERROR' },
      { name: 'bash_1', lines: '1:20' },
    ]);
    expect(
      scoring.questionWords('Which datanode replicated blk_-7571492020523929240 on 2014-07-04?'),
    ).toEqual(['datanode', 'replicated', 'blk_-7571492020523929240', '2014-07-04']);
    expect(scoring.sharedWords('Which DataNode failed?', 'the datanode is fine')).toEqual(['datanode']);
  });

  it('reaches an answer with at most two calls a literal reader takes, and says which', async () => {
    const question = { q: 'Was there a deadlock?', answers: ['deadlock detected'] };
    const content = scoring.outputContent(LOG);
    const entry = { name: 'bash_1', id: '0123456789abcdef' };
    const reads: string[] = [];
    const read = async (call: { regex?: string; lines?: string }) => {
      reads.push(JSON.stringify(call));
      if (call.regex === 'deadlock')
        return '2: 2026-04-26T18:22:01Z ERROR request id=31337 deadlock detected';
      if (call.lines === '1:1') return 'more: {"name": "bash_1", "regex": "deadlock", "ignore_case": true}';
      return 'nothing';
    };
    // The word is shown: one grep for it.
    expect(
      await scoring.reachWithReads({ question, observation: 'a deadlock?', content, entry, read }),
    ).toEqual([{ name: 'bash_1', regex: 'deadlock', ignore_case: true }]);
    // Not shown, but the first suggested read spells out the grep: two calls.
    expect(
      await scoring.reachWithReads({
        question,
        observation: 'see {"name": "bash_1", "lines": "1:1"}',
        content,
        entry,
        read,
      }),
    ).toEqual([
      { name: 'bash_1', lines: '1:1' },
      { name: 'bash_1', regex: 'deadlock', ignore_case: true },
    ]);
    // Nothing to go on: not reached, and no call is invented.
    reads.length = 0;
    expect(
      await scoring.reachWithReads({ question, observation: 'nothing here', content, entry, read }),
    ).toBeNull();
    expect(reads).toEqual([]);
  });
});

describe('bench:previews count check', () => {
  // The case, small: 6,000 lines, 162 of them ERROR, the preview read from a sample of them.
  const content = `${Array.from({ length: 6000 }, (_, index) =>
    index % 37 === 11
      ? `12:00:${index} ERROR request ${index} reset by peer`
      : `12:00:${index} INFO request ${index} done`,
  ).join('\n')}\n`;
  const header =
    '[bash output stored as bash_1 (id 0123456789abcdef, text, 1 chars, 6,000 lines; kept for 1 hour); not shown in full]';
  const check = (preview: string, observationHeader = header) =>
    counting.checkCounts({ observation: `${observationHeader}\n${preview}`, preview, content, lineSignal });

  it("flags a sample's counts stated as totals: lines, error lines and [×N]", () => {
    const preview = [
      'Text, ≥873 lines of 2 kinds (repetitive, like a log); 24 error lines; read from a 786 KB sample of 5.4 MB (start, middle windows, end):',
      'Stands out ([×N]: N lines of that kind):',
      '  12 [×24]: 12:00:11 ERROR request 11 reset by peer',
    ].join('\n');
    const { problems } = check(preview);
    expect(problems).toEqual([
      '≥873 lines: ≥ without the note that explains it',
      '2 kinds: counted in a sample and not marked',
      '24 error lines: the output has 162',
      '[×24] 12:00:11 ERROR request 11 reset by peer: lines of its kind are between 162 and 162',
    ]);
  });

  it("flags a JSON key's value counts read from part of the output unless marked as lower bounds", () => {
    const shape = (first: string, counts: string) =>
      [first, `    type: string ("Feature" ${counts}, "Point" ${counts})`, 'First lines:', '  1: {}'].join(
        '\n',
      );
    const sampled = 'JSON object, 3 keys; read from a 784 KB sample of 1.2 MB (start, middle windows, end):';
    expect(check(shape(sampled, '1,000')).problems).toEqual([
      '"Feature" 1,000: counted in a sample and not marked',
      '"Point" 1,000: counted in a sample and not marked',
    ]);
    const marked =
      'JSON object, 3 keys (read from the start: counts marked ≥ are lower bounds); read from a 784 KB sample of 1.2 MB:';
    expect(check(shape(marked, '≥1,000')).problems).toEqual([]);
  });

  it('passes exact counts and counts marked as estimates beside the sizes; a header that disagrees fails', () => {
    const preview = [
      'Text, 6,000 lines of ≈2 kinds (estimated from 786 KB of 5.4 MB), repetitive like a log; 162 error lines; read from a 786 KB sample of 5.4 MB (start, middle windows, end):',
      'Stands out ([×N]: N lines of that kind):',
      '  12 [×162]: 12:00:11 ERROR request 11 reset by peer',
      '  ~ [×≈40]: 12:00:11 ERROR request 11 reset by peer',
    ].join('\n');
    const { checked, problems } = check(preview);
    expect(problems).toEqual([]);
    expect(checked.map((claim: { status: string }) => claim.status)).toEqual([
      'exact',
      'exact',
      'marked',
      'exact',
      'exact',
      'marked',
    ]);
    expect(check(preview, header.replace('6,000 lines', '5,999 lines')).problems).toEqual([
      'header: 5,999 lines: the output has 6000',
    ]);
  });
});

describe('npm run bench:previews', () => {
  it('scores every policy on a corpus and writes its results; skips cleanly without one', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'bench-previews-'));
    try {
      mkdirSync(join(directory, 'corpus'));
      const text = Array.from({ length: 400 }, (_, index) =>
        index === 250 ? 'ERROR job 250 failed: disk full' : `INFO job ${index} done in ${index % 7} ms`,
      ).join('\n');
      writeFileSync(join(directory, 'corpus/jobs.log.gz'), gzipSync(text));
      const questions = {
        version: 1,
        items: [
          {
            id: 'jobs',
            file: 'corpus/jobs.log.gz',
            tool: 'shell_exec',
            call: '{"command":"cat jobs.log"}',
            task: 'Why did a job fail?',
            questions: [
              {
                id: 'q1',
                q: 'Which job failed, and why?',
                need: 'anomaly',
                answers: [{ line: '^ERROR job \\d+ failed' }],
              },
              {
                id: 'q2',
                q: 'What does a line look like?',
                need: 'format',
                answers: [{ line: '^INFO job \\d+ done' }],
              },
            ],
          },
        ],
      };
      writeFileSync(join(directory, 'questions.json'), JSON.stringify(questions));
      const run = (args: string[]) =>
        promisify(execFile)(process.execPath, ['bench/previews.js', ...args], {
          cwd: root,
          timeout: 120_000,
        });
      const output = join(directory, 'previews.json');
      const { stdout } = await run(['--data', directory, '--no-timing', '--no-large', '--json', output]);
      expect(stdout).toContain('(1 outputs, 2 questions)');
      const written = JSON.parse(readFileSync(output, 'utf8'));
      const results = written.sets[0];
      expect(results.policies.map((policy: { key: string }) => policy.key)).toEqual([
        'default',
        'seed-000',
        'first-last-lines',
        'json-structure',
        'summary',
        'head-same-size',
        'head-tail-same-size',
      ]);
      const byKey = Object.fromEntries(
        results.policies.map((policy: { key: string }) => [policy.key, policy]),
      );
      expect(byKey.default.answered).toBe(1);
      // The summary arm: the scripted summarizer's lines, said to be scripted, scored like every policy. Its rule
      // picks the line with a word of the task ("fail"), so the anomaly is answered, and its first 3 lines show the
      // format.
      expect(stdout).toContain(
        'summary preview: written by a scripted line-picking summarizer (not a model;',
      );
      expect(written.definitions.summary).toContain('scripted line-picking summarizer (not a model;');
      const summaryQuestions = byKey.summary.questions.map((row: { question: string; answered: boolean }) => [
        row.question,
        row.answered,
      ]);
      expect(summaryQuestions).toEqual([
        ['q1', true],
        ['q2', true],
      ]);
      expect(byKey.summary.meanSize).toBeLessThan(byKey.default.meanSize);
      expect(byKey['head-same-size'].meanSize).toBe(byKey.default.meanSize);
      expect(byKey['head-tail-same-size'].meanSize).toBe(byKey.default.meanSize);
      expect(written.countProblems).toEqual([]);
      expect(byKey.default.counts.exact).toBeGreaterThan(0);
      const skipped = await run(['--data', join(directory, 'missing'), '--no-timing', '--sets', 'dev']);
      expect(skipped.stdout + skipped.stderr).toContain('bench:previews: no dev set found');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 120_000);
});
