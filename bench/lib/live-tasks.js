// Tasks for the live evaluation: large generated observations (logs, JSON API dumps, source files, CSV) with one
// planted fact at the start, the middle or the end, and a question only that fact answers.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const POSITIONS = ['start', 'middle', 'end'];

function random(seed) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

function plant(lines, fact, position) {
  const index =
    position === 'start' ? 3 : position === 'middle' ? Math.floor(lines.length / 2) : lines.length - 3;
  lines.splice(index, 0, fact);
  return lines;
}

const KINDS = {
  log(rand, position, index) {
    const code = `E-${4000 + index}-${Math.floor(rand() * 90 + 10)}XK`;
    const lines = Array.from({ length: 4000 }, (_, line) => {
      const level = rand() < 0.04 ? 'WARN' : 'INFO';
      return `2026-04-26T10:${String(Math.floor(line / 60) % 60).padStart(2, '0')}:${String(line % 60).padStart(2, '0')}Z ${level} worker-${line % 8} request ${line} served in ${Math.floor(rand() * 300)}ms`;
    });
    plant(
      lines,
      `2026-04-26T11:11:11Z ERROR worker-3 payment gateway rejected the batch with code ${code}`,
      position,
    );
    return {
      file: 'service.log',
      text: `${lines.join('\n')}\n`,
      question: 'service.log: which error code did the payment gateway return? Answer with the code.',
      answer: code,
    };
  },
  json(rand, position, index) {
    const owner = `owner-${index}-${Math.floor(rand() * 9000 + 1000)}`;
    const items = Array.from({ length: 1500 }, (_, item) => ({
      id: `acct-${item}`,
      owner: `user-${Math.floor(rand() * 99999)}`,
      balance: Math.floor(rand() * 1e6) / 100,
      tags: ['retail', 'eu'],
    }));
    const target = { id: 'acct-special-7731', owner, balance: 42.5, tags: ['vip'] };
    const at = position === 'start' ? 1 : position === 'middle' ? 750 : 1499;
    items.splice(at, 0, target);
    return {
      file: 'accounts.json',
      text: JSON.stringify({ page: 1, items }, null, 2),
      question: 'accounts.json: who is the owner of account acct-special-7731? Answer with the owner id.',
      answer: owner,
    };
  },
  source(rand, position, index) {
    const value = `0x${(0xa000 + index * 17).toString(16)}${Math.floor(rand() * 16).toString(16)}`;
    const lines = [];
    for (let fn = 0; fn < 400; fn++) {
      lines.push(
        `export function helper${fn}(input: number): number {`,
        `  const scaled = input * ${fn + 1};`,
        `  return scaled % ${fn + 7};`,
        '}',
        '',
      );
    }
    plant(lines, `export const RETRY_MAGIC = ${value}; // the retry seed the scheduler uses`, position);
    return {
      file: 'scheduler.ts',
      text: lines.join('\n'),
      question: 'scheduler.ts: what is the value of RETRY_MAGIC? Answer with the hex literal.',
      answer: value,
    };
  },
  csv(rand, position, index) {
    const city = `Zanthor-${index}`;
    const rows = ['date,city,temperature_c,station'];
    for (let row = 0; row < 5000; row++)
      rows.push(
        `2026-0${(row % 9) + 1}-${String((row % 28) + 1).padStart(2, '0')},City-${row % 300},${(rand() * 35).toFixed(1)},ST${row % 40}`,
      );
    plant(rows, `2026-07-14,${city},51.3,ST99`, position === 'start' ? 'start' : position);
    return {
      file: 'weather.csv',
      text: `${rows.join('\n')}\n`,
      question: 'weather.csv: which city recorded 51.3 degrees? Answer with the city name.',
      answer: city,
    };
  },
};

/** `count` tasks (at least 20 by default), spread over every kind and position, written under `directory`. */
export function generateTasks(directory, count = 24, seed = 20261122) {
  const rand = random(seed);
  const kinds = Object.keys(KINDS);
  return Array.from({ length: count }, (_, index) => {
    const kind = kinds[index % kinds.length];
    const position = POSITIONS[Math.floor(index / kinds.length) % POSITIONS.length];
    const task = KINDS[kind](rand, position, index);
    const file = join(directory, `${index}-${task.file}`);
    writeFileSync(file, task.text);
    return {
      id: `${kind}-${position}-${index}`,
      kind,
      position,
      file,
      bytes: Buffer.byteLength(task.text),
      query: `Read the file ${file} and answer: ${task.question.replace(/^[^:]+: /, '')}`,
      answer: task.answer,
    };
  });
}
