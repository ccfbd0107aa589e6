// Tasks for the live evaluation, over large generated observations:
// - needle tasks (logs, JSON API dumps, source files, CSV): one planted fact at the start, the middle or the end, and a
//   question only that fact answers;
// - the kinds of the LRO paper: a whole-corpus ID lookup (the ids of three users named by email in a JSONL directory
//   of 3,000), a filter (every order of a 5,000-row CSV matching two conditions) and an aggregation (the sum of a
//   field over the 40-59 lines of a 6,000-line access log that match a status).
// Every answer is computed from the generated data; `score(message)` says whether a final answer is right.
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

/** The whole-token ids matching `pattern` (global) in `message`. */
function idsIn(message, pattern) {
  return new Set(message.match(pattern) ?? []);
}

/** Whether `message` names exactly the ids of `expected` (each once or more, no other id of that shape). */
function sameIds(message, expected, pattern) {
  const named = idsIn(message, pattern);
  return named.size === expected.length && expected.every((id) => named.has(id));
}

/** Distinct random indices in [low, high), sorted. */
function spreadIndices(rand, count, low, high) {
  const chosen = new Set();
  while (chosen.size < count) chosen.add(low + Math.floor(rand() * (high - low)));
  return [...chosen].sort((a, b) => a - b);
}

const FIRST = [
  'ada',
  'bruno',
  'chiara',
  'dev',
  'elif',
  'femi',
  'greta',
  'hugo',
  'ines',
  'jonas',
  'kaya',
  'luca',
];
const LAST = ['rossi', 'okafor', 'novak', 'tanaka', 'silva', 'berg', 'moreau', 'kowalski', 'haddad', 'lind'];
const TEAMS = ['payments', 'search', 'infra', 'mobile', 'data', 'growth'];

/** LRO kinds: a question over the whole output, not one planted line. */
const WHOLE_OUTPUT_KINDS = {
  lookup(rand, _position, index) {
    const ids = new Set();
    const users = Array.from({ length: 3000 }, (_, row) => {
      let id;
      do id = `usr-${String(Math.floor(rand() * 900000) + 100000)}`;
      while (ids.has(id));
      ids.add(id);
      const first = FIRST[Math.floor(rand() * FIRST.length)];
      const last = LAST[Math.floor(rand() * LAST.length)];
      return {
        id,
        name: `${first} ${last}`,
        email: `${first}.${last}.${row}@corp.example`,
        team: TEAMS[row % 6],
      };
    });
    // Three users asked for by email: near the start, in the middle and near the end of the directory.
    const targets = [3, 1500, 2996].map((row) => users[row]);
    targets.forEach((user, at) => {
      user.email = `lookup.${index}.${at}.${user.email}`;
    });
    return {
      file: 'users.jsonl',
      text: `${users.map((user) => JSON.stringify(user)).join('\n')}\n`,
      question: `users.jsonl: which user ids have the emails ${targets.map((user) => user.email).join(', ')}? Answer with the three ids.`,
      answer: targets.map((user) => user.id).join(', '),
      score: (message) =>
        sameIds(
          message,
          targets.map((user) => user.id),
          /\busr-\d{6}\b/g,
        ),
    };
  },
  filter(rand, _position, index) {
    const regions = ['north', 'south', 'east', 'west'];
    const statuses = ['paid', 'paid', 'paid', 'shipped', 'shipped', 'pending', 'refunded', 'disputed'];
    const count = 5 + (index % 4);
    const matching = new Set(spreadIndices(rand, count, 500, 4500));
    const rows = ['order_id,customer,region,status,amount'];
    const expected = [];
    for (let row = 0; row < 5000; row++) {
      const id = `ORD-${100000 + row * 3 + (index % 3)}`;
      let region = regions[Math.floor(rand() * regions.length)];
      let status = statuses[Math.floor(rand() * statuses.length)];
      if (matching.has(row)) {
        region = 'north';
        status = 'disputed';
        expected.push(id);
      } else if (region === 'north' && status === 'disputed') status = 'pending';
      rows.push(
        `${id},cust-${Math.floor(rand() * 9000) + 1000},${region},${status},${(rand() * 500).toFixed(2)}`,
      );
    }
    return {
      file: 'orders.csv',
      text: `${rows.join('\n')}\n`,
      question:
        'orders.csv: list every order_id whose region is north and whose status is disputed. Answer with all of them.',
      answer: expected.join(', '),
      score: (message) => sameIds(message, expected, /\bORD-\d{6}\b/g),
    };
  },
  aggregate(rand, _position, index) {
    const count = 40 + (index % 20);
    const failing = new Set(spreadIndices(rand, count, 0, 6000));
    const statuses = [200, 200, 200, 200, 201, 304, 404];
    let total = 0;
    const lines = Array.from({ length: 6000 }, (_, line) => {
      const status = failing.has(line) ? 503 : statuses[Math.floor(rand() * statuses.length)];
      const bytes = Math.floor(rand() * 90000) + 100;
      if (status === 503) total += bytes;
      const time = `10:${String(Math.floor(line / 100) % 60).padStart(2, '0')}:${String(line % 60).padStart(2, '0')}`;
      return `2026-04-26T${time}Z GET /api/v1/items/${Math.floor(rand() * 5000)} status=${status} bytes=${bytes} req=r${String(line).padStart(6, '0')}`;
    });
    return {
      file: 'access.log',
      text: `${lines.join('\n')}\n`,
      question:
        'access.log: what is the total of the bytes= values over all requests that returned status=503? Answer with one number.',
      answer: String(total),
      score: (message) =>
        (message.replace(/(\d),(?=\d{3}\b)/g, '$1').match(/\b\d+\b/g) ?? []).includes(String(total)),
    };
  },
};

/** Every kind, needle kinds first; each task's `family` is `needle` or its LRO kind. */
const ALL_KINDS = { ...KINDS, ...WHOLE_OUTPUT_KINDS };

/**
 * `count` tasks (24 by default), spread over every kind (needle kinds at each position in turn), written under
 * `directory`. Each task has `family` (`needle`, `lookup`, `filter`, `aggregate`) and `score(finalMessage)`.
 */
export function generateTasks(directory, count = 24, seed = 20261122) {
  const rand = random(seed);
  const kinds = Object.keys(ALL_KINDS);
  return Array.from({ length: count }, (_, index) => {
    const kind = kinds[index % kinds.length];
    const needle = kind in KINDS;
    const position = needle ? POSITIONS[Math.floor(index / kinds.length) % POSITIONS.length] : 'whole';
    const task = ALL_KINDS[kind](rand, position, index);
    const file = join(directory, `${index}-${task.file}`);
    writeFileSync(file, task.text);
    return {
      id: `${kind}-${position}-${index}`,
      kind,
      family: needle ? 'needle' : kind,
      position,
      file,
      bytes: Buffer.byteLength(task.text),
      query: `Read the file ${file} and answer: ${task.question.replace(/^[^:]+: /, '')}`,
      answer: task.answer,
      score: task.score ?? ((message) => message.toLowerCase().includes(task.answer.toLowerCase())),
    };
  });
}
