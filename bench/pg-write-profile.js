import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { optionValue as option, requireBuilt } from './lib/command-line.js';

const _here = dirname(fileURLToPath(import.meta.url));
requireBuilt();
const url = option('--store', 'postgres://root@127.0.0.1:5432/test');
const writes = Number(option('--writes', 2000));

const pg = (await import('pg')).default;
const { createPostgresDriver } = await import('../dist/stores/postgres/index.js');
const { createScratchpad } = await import('../dist/index.js');

/** Statement kind: its first words, with the schema and parameters left out. */
function kind(text) {
  const sql = typeof text === 'string' ? text : text.text;
  const compact = sql
    .replace(/"[^"]+"\./g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (/^WITH nothing/.test(compact)) return 'WITH … INSERT entries (+chunks)';
  if (/^WITH retired/.test(compact)) return 'WITH … UPDATE entries (+chunks)';
  return compact.slice(0, 48);
}

const timings = new Map();
let measuring = false;
function timed(target) {
  const query = target.query.bind(target);
  target.query = (text, values, callback) => {
    const started = process.hrtime.bigint();
    const record = () => {
      if (!measuring) return;
      const ns = Number(process.hrtime.bigint() - started);
      const key = kind(text);
      const entry = timings.get(key) ?? { count: 0, ns: 0 };
      entry.count++;
      entry.ns += ns;
      timings.set(key, entry);
    };
    // pg.Pool#query calls its client's query with a callback.
    if (typeof callback === 'function') {
      return query(text, values, (error, result) => {
        record();
        callback(error, result);
      });
    }
    return query(text, values).finally(record);
  };
  return target;
}

const pool = new pg.Pool({ connectionString: url, max: 10 });
const connect = pool.connect.bind(pool);
let checkoutNs = 0;
pool.connect = (callback) => {
  const started = process.hrtime.bigint();
  const wrap = (client) => {
    if (measuring) checkoutNs += Number(process.hrtime.bigint() - started);
    if (client && !client.__timed) {
      timed(client);
      client.__timed = true;
    }
    return client;
  };
  // pg.Pool#query checks a client out with a callback (its own query is timed as the pool's).
  if (callback) return connect((error, client, release) => callback(error, client && wrap(client), release));
  return connect().then(wrap);
};
const schema = `scratchpad_profile_${process.pid}`;
const driver = await createPostgresDriver({ pool, schema });
const pad = createScratchpad({ driver });
const text = (index) => `entry ${index}: ${'x'.repeat(1000)}`.slice(0, 1000);

const raw = new pg.Client({ connectionString: url });
await raw.connect();
await raw.query(`CREATE TABLE ${schema}.kv (name text PRIMARY KEY, data bytea NOT NULL)`);

/** The server's WAL insert position: WAL bytes between two of them are every session's, so run it alone. */
async function walPosition() {
  return (await raw.query('SELECT pg_current_wal_insert_lsn() AS at')).rows[0].at;
}

async function walBytesSince(start) {
  const result = await raw.query('SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1) AS bytes', [start]);
  return Number(result.rows[0].bytes);
}

async function floor(label, run) {
  for (let index = 0; index < 200; index++) await run(index);
  const wal = await walPosition();
  const started = process.hrtime.bigint();
  for (let index = 0; index < writes; index++) await run(index + 1e6);
  const ms = Number(process.hrtime.bigint() - started) / writes / 1e6;
  return [label, ms, (await walBytesSince(wal)) / writes];
}

try {
  const floors = [
    await floor('SELECT 1 (unnamed)', () => raw.query('SELECT 1')),
    await floor('SELECT $1 (named)', (index) =>
      raw.query({ name: 's1', text: 'SELECT $1::int', values: [index] }),
    ),
    await floor('raw insert (named)', (index) =>
      raw.query({
        name: 'ins',
        text: `INSERT INTO ${schema}.kv (name, data) VALUES ($1, $2)`,
        values: [`k${index}`, Buffer.from(text(index))],
      }),
    ),
  ];
  for (const mode of ['create', 'replace']) {
    for (let index = 0; index < 200; index++)
      await pad.write('profile', mode === 'create' ? `warm-${index}` : 'same', text(index));
    timings.clear();
    checkoutNs = 0;
    measuring = true;
    const wal = await walPosition();
    const started = process.hrtime.bigint();
    for (let index = 0; index < writes; index++)
      await pad.write('profile', mode === 'create' ? `entry-${index}` : 'same', text(index));
    const totalNs = Number(process.hrtime.bigint() - started);
    measuring = false;
    const walPerWrite = (await walBytesSince(wal)) / writes;
    let statementsNs = 0;
    console.log(
      `\n${mode}: ${(totalNs / writes / 1e6).toFixed(3)} ms per write, ${walPerWrite.toFixed(0)} B of WAL per write`,
    );
    for (const [key, entry] of [...timings].sort((a, b) => b[1].ns - a[1].ns)) {
      statementsNs += entry.ns;
      console.log(
        `  ${(entry.count / writes).toFixed(2)} × ${(entry.ns / entry.count / 1e6).toFixed(3)} ms  ${key}`,
      );
    }
    console.log(
      `  statements ${(statementsNs / writes / 1e6).toFixed(3)} ms, pool checkout ${(checkoutNs / writes / 1e6).toFixed(3)} ms, rest (our CPU) ${((totalNs - statementsNs - checkoutNs) / writes / 1e6).toFixed(3)} ms`,
    );
  }
  console.log('\nfloors:');
  for (const [label, ms, wal] of floors)
    console.log(`  ${ms.toFixed(3)} ms  ${wal.toFixed(0)} B WAL  ${label}`);
} finally {
  await pad.close();
  await raw.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await raw.end();
}
