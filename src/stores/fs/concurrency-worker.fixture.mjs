// Child process for fs-driver.test.ts: hammers one fs store with compare-and-set increments and appends.
// Usage: node concurrency-worker.fixture.mjs ROOT WORKER ROUNDS (imports the built package from dist/).
import { createScratchpad } from '../../../dist/service/scratchpad.js';
import { createFsDriver } from '../../../dist/stores/fs/index.js';

const [root, worker, roundsText] = process.argv.slice(2);
const rounds = Number(roundsText);
const driver = createFsDriver({ root });
const scratchpad = createScratchpad({ driver, chunkSize: 64 });
const retryable = new Set(['VERSION_CONFLICT', 'ENTRY_EXISTS']);
let conflicts = 0;
let increments = 0;
let appends = 0;

async function withRetry(body) {
  for (;;) {
    try {
      return await body();
    } catch (error) {
      if (!retryable.has(error?.code)) throw error;
      conflicts++;
    }
  }
}

for (let round = 0; round < rounds; round++) {
  await withRetry(async () => {
    const current = await scratchpad.find('shared', 'counter');
    const value = current ? Number((await scratchpad.read('shared', 'counter')).content) : 0;
    // A read can see a newer version than `current`; the compare-and-set on `current.version` catches that too.
    await scratchpad.write('shared', 'counter', String(value + 1), {
      ifVersion: current ? current.version : 0,
    });
  });
  increments++;
  await withRetry(() =>
    scratchpad.write('shared', 'log', `worker ${worker} round ${round}\n`, { mode: 'append' }),
  );
  appends++;
  await scratchpad.write('shared', `worker-${worker}`, `round ${round}`);
}
await driver.close();
process.stdout.write(JSON.stringify({ worker: Number(worker), increments, appends, conflicts }));
