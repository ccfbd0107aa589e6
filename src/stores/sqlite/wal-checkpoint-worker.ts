/**
 * The checkpoint thread of a SQLite store (started by `WalCheckpointer`, wal-checkpointer.ts): its own connection
 * copies the WAL back into the database with passive checkpoints once enough of it is new, so the fsyncs of a
 * checkpoint never run in a writer's commit on the event loop. A passive checkpoint waits for no reader nor writer;
 * SQLite reuses the WAL from its start once a checkpoint caught up.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteConnection } from './sqlite-binding.js';

/** What the thread is started with. */
export interface CheckpointWorkerData {
  path: string;
  /** Checkpoint once the WAL holds this many frames not copied back yet. */
  thresholdFrames: number;
  /** How often it looks at the WAL while writes come in, and while none do, in milliseconds. */
  busyIntervalMs: number;
  idleIntervalMs: number;
}

const { path, thresholdFrames, busyIntervalMs, idleIntervalMs } = workerData as CheckpointWorkerData;
const database = openSqliteConnection(path, { mustExist: true });
const checkpoint = database.prepare('PRAGMA wal_checkpoint(PASSIVE)');

// The wal-index header in `<path>-shm` (https://sqlite.org/walformat.html, in the machine's byte order): the
// WAL's last valid frame (`mxFrame`, byte 16) and how many frames a checkpoint copied back (`nBackfill`, byte 96).
const header = Buffer.alloc(100);
const littleEndian = endianness() === 'LE';
let lastFrame = -1;

/** Frames of the WAL not yet copied back into the database (0 when the index cannot be read). */
function pendingFrames(): number {
  let fd: number | undefined;
  try {
    fd = openSync(`${path}-shm`, 'r');
    if (readSync(fd, header, 0, header.byteLength, 0) < header.byteLength) return 0;
  } catch {
    return 0;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const read = (offset: number): number =>
    littleEndian ? header.readUInt32LE(offset) : header.readUInt32BE(offset);
  const frames = read(16);
  const backfilled = read(96);
  const active = frames !== lastFrame;
  lastFrame = frames;
  schedule(active ? busyIntervalMs : idleIntervalMs);
  return backfilled <= frames ? frames - backfilled : frames;
}

let timer: NodeJS.Timeout | undefined;
let interval = 0;
function schedule(ms: number): void {
  if (ms === interval && timer) return;
  interval = ms;
  if (timer) clearInterval(timer);
  timer = setInterval(look, ms);
}

function look(): void {
  if (pendingFrames() < thresholdFrames) return;
  try {
    checkpoint.get();
  } catch {
    // Busy or failing: tried again at the next look; the store's connection still checkpoints itself past its
    // own, larger threshold.
  }
}

schedule(idleIntervalMs);

parentPort?.on('message', (message: 'close') => {
  if (message !== 'close') return;
  if (timer) clearInterval(timer);
  database.close();
  parentPort?.close();
});
