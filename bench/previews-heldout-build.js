/**
 * Builds the held-out preview corpus (bench/data/previews-heldout) from raw captured outputs and the hand-written
 * question spec (questions.spec.json): gzips each output into corpus/, records its size and SHA-256, and locates
 * every answer in it (first line, occurrences), failing when an answer is absent — so no question is unanswerable.
 *
 *   node bench/previews-heldout-build.js --raw DIR
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { optionValue } from './lib/command-line.js';

const here = join(dirname(fileURLToPath(import.meta.url)), 'data', 'previews-heldout');
const raw = optionValue('--raw', undefined, process.argv.slice(2));
if (!raw) throw new Error('Give --raw DIR (the folder of captured outputs the spec names).');
const spec = JSON.parse(readFileSync(join(here, 'questions.spec.json'), 'utf8'));
mkdirSync(join(here, 'corpus'), { recursive: true });

const problems = [];
const items = spec.map((entry) => {
  const bytes = readFileSync(join(raw, entry.file));
  const text = bytes.toString('utf8');
  const ext = extname(entry.file).slice(1) || 'txt';
  const file = `corpus/${entry.id}.${ext}.gz`;
  writeFileSync(join(here, file), gzipSync(bytes, { level: 9 }));
  const lines = text.split('\n');
  const questions = entry.q.map(([need, q, answers], index) => {
    const located = answers.map((answer) => {
      const found = locate(answer, text, lines);
      if (!found.present)
        problems.push(`${entry.id} q${index + 1}: answer not found: ${JSON.stringify(answer)}`);
      return { answer, ...found };
    });
    return { id: `q${index + 1}`, q, need, answers, located };
  });
  return {
    id: entry.id,
    set: 'held-out',
    kind: entry.kind,
    ext,
    file,
    bytes: bytes.byteLength,
    chars: [...text].length,
    lines: lines.length - (text.endsWith('\n') ? 1 : 0),
    sha256: createHash('sha256').update(bytes).digest('hex'),
    tool: entry.tool,
    call: JSON.stringify(entry.tool === 'read_file' ? { path: entry.call } : { command: entry.call }),
    task: entry.task,
    source: { command: entry.call },
    plant: null,
    questions,
  };
});
if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  process.exit(1);
}
writeFileSync(join(here, 'questions.json'), `${JSON.stringify({ version: 1, items }, null, 1)}\n`);
const kinds = new Set(items.map((item) => item.kind));
const count = items.reduce((sum, item) => sum + item.questions.length, 0);
console.log(`${items.length} outputs, ${kinds.size} kinds, ${count} questions`);

function locate(answer, text, lines) {
  if (typeof answer === 'string') {
    let occurrences = 0;
    for (let at = text.indexOf(answer); at !== -1; at = text.indexOf(answer, at + 1)) occurrences++;
    const squashed = answer.replace(/\s+/g, '');
    const present = occurrences > 0 || text.replace(/\s+/g, '').includes(squashed);
    const firstLine = lines.findIndex((line) => line.includes(answer)) + 1;
    return { present, firstLine: firstLine || null, occurrences, atLine: fraction(firstLine, lines) };
  }
  if ('line' in answer) {
    const pattern = new RegExp(answer.line);
    const matching = [];
    lines.forEach((line, index) => {
      if (line.trim() && pattern.test(line.endsWith('\r') ? line.slice(0, -1) : line))
        matching.push(index + 1);
    });
    return {
      present: matching.length > 0,
      firstLine: matching[0] ?? null,
      occurrences: matching.length,
      atLine: fraction(matching[0], lines),
    };
  }
  if ('key' in answer) {
    const occurrences = text.split(`"${answer.key}"`).length - 1;
    return { present: occurrences > 0, occurrences };
  }
  if ('any' in answer) {
    const found = answer.any.map((option) => locate(option, text, lines));
    return { present: found.some((one) => one.present), options: found };
  }
  throw new Error(`Unknown answer form: ${JSON.stringify(answer)}`);
}

function fraction(line, lines) {
  return line ? Math.round((line / lines.length) * 1000) / 1000 : null;
}
