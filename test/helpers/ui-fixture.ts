import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { appendTurnLog } from '../../packages/runtime/src/planner/turn-log.js';
import type { StepRecordLog, TurnLogRecord } from '../../packages/runtime/src/planner/turn-record.js';
import type { Entry } from '../../src/core/entry.js';
import { createScratchpad } from '../../src/service/scratchpad.js';
import { openStore } from '../../src/stores/open-store.js';

/** The line of the big log that the browser test searches and greps for. */
export const NEEDLE = 'checksum mismatch in shard 4242';

/** A server log of about `megabytes` MB, streamed in 1 MB pieces; `NEEDLE` is on the middle line. */
async function* serverLog(megabytes: number): AsyncGenerator<string> {
  const target = megabytes * 1024 * 1024;
  let written = 0;
  let line = 0;
  let needleWritten = false;
  while (written < target) {
    let piece = '';
    while (piece.length < 1 << 20) {
      line += 1;
      const level = line % 9973 === 0 ? 'ERROR' : 'INFO ';
      piece += `2026-11-24T12:${String(Math.floor(line / 60) % 60).padStart(2, '0')}:${String(line % 60).padStart(2, '0')}Z ${level} request ${String(line).padStart(8, '0')} served in ${line % 97} ms path=/api/items/${line % 1000}\n`;
      if (!needleWritten && written + piece.length >= target / 2) {
        line += 1;
        piece += `2026-11-24T13:00:00Z FATAL ${NEEDLE}: expected 9f2c got 11ab\n`;
        needleWritten = true;
      }
    }
    written += piece.length;
    yield piece;
  }
}

/** What the fixture made. */
export interface UiFixture {
  storeUrl: string;
  turnsDir: string;
  big: Entry;
  needleLine: number;
  turnId: string;
}

function step(
  overrides: Partial<StepRecordLog> & Pick<StepRecordLog, 'step' | 'tool' | 'result'>,
): StepRecordLog {
  return {
    llm: { inputTokens: 1800, outputTokens: 64, latencyMs: 850 },
    rawArgs: {},
    resolvedArgs: {},
    outcome: 'executed',
    validation: { ok: true },
    sandbox: 'bubblewrap',
    run: { exitCode: 0, timedOut: false, outputCapped: false, durationMs: 420, network: false },
    ...overrides,
  };
}

/**
 * A SQLite store with a big server log offloaded by a turn (and a few small entries: JSON, binary, notes) and a
 * turn log of three turns, one with a vaglio denial: what `scratchpad ui` shows in the browser test.
 */
export async function createUiFixture(directory: string, megabytes: number): Promise<UiFixture> {
  const storeUrl = `sqlite:${join(directory, 'store.db')}`;
  const turnsDir = join(directory, 'turns');
  mkdirSync(turnsDir, { recursive: true });
  const scratchpad = createScratchpad({ driver: await openStore(storeUrl) });
  const turnId = '7d1f0c2e-5a8b-4c61-9e3f-2b7a9c4d1e05';
  const big = (
    await scratchpad.write('incident-42', 'shell_exec_1', serverLog(megabytes), {
      source: 'shell_exec',
      turn: turnId,
      step: 2,
      kind: 'text',
      ttlMs: null,
      metadata: { command: 'journalctl -u api' },
    })
  ).entry;
  // The needle's line number, found the way a reader would: grep.
  const found = await scratchpad.grep(
    'incident-42',
    { id: big.id },
    { pattern: NEEDLE, maxMatches: 1, stopAtMax: true },
  );
  const needleLine = found.matches[0]?.line ?? 0;
  const config = (
    await scratchpad.write(
      'incident-42',
      'fs_read_1',
      JSON.stringify({
        service: 'api',
        shards: Array.from({ length: 40 }, (_, index) => ({ id: index, replicas: 3 })),
      }),
      { source: 'fs_read', turn: turnId, step: 1, mediaType: 'application/json' },
    )
  ).entry;
  await scratchpad.write(
    'incident-42',
    'core-dump-head',
    Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 37) % 256)),
    {
      source: 'fs_read',
      kind: 'binary',
      mediaType: 'application/octet-stream',
    },
  );
  await scratchpad.write(
    'build-7',
    'npm-test-output',
    Array.from({ length: 300 }, (_, index) => `ok ${index + 1} - test ${index + 1}`).join('\n'),
    {
      source: 'shell_exec',
      pinned: true,
    },
  );
  await scratchpad.close();
  const start = 1_795_000_000;
  const base = {
    session: 'incident-42',
    mode: 'local' as const,
    model: { provider: 'ollama', modelId: 'qwen3:8b' },
    candidates: ['fs_read', 'shell_exec'],
    k: { value: 2, reason: 'adaptive' },
    discarded: [],
    model_calls: [],
  };
  const records: TurnLogRecord[] = [
    {
      ...base,
      turn_id: turnId,
      ts_start: start,
      ts_end: start + 6.2,
      user_query: 'Why did the API return 500s at 13:00?',
      steps: [
        step({
          step: 1,
          tool: 'fs_read',
          rawArgs: { path: 'config/api.json' },
          resolvedArgs: { path: 'config/api.json' },
          vaglio: {
            approved: true,
            reason: 'reads inside the project',
            score: 0.93,
            blocked_by: null,
            judge_kind: 'rules',
            ts: '2026-11-18T10:13:20Z',
          },
          result: {
            ok: true,
            offloaded: true,
            entry: config.id,
            name: config.name,
            bytes: config.bytes,
            shownChars: 640,
            observation: 'Stored as fs_read_1 (JSON, 1 object: service, shards[40]).',
          },
        }),
        step({
          step: 2,
          tool: 'shell_exec',
          rawArgs: { command: 'journalctl -u api --since 12:00' },
          resolvedArgs: { command: 'journalctl -u api --since 12:00' },
          vaglio: {
            approved: true,
            reason: 'read-only command',
            score: 0.81,
            blocked_by: null,
            judge_kind: 'both',
            ts: '2026-11-18T10:13:22Z',
          },
          result: {
            ok: true,
            offloaded: true,
            entry: big.id,
            name: big.name,
            bytes: big.bytes,
            shownChars: 2310,
            observation: `Stored as shell_exec_1: ${big.lines.toLocaleString('en-US')} lines of a server log.\nStands out: 1 FATAL line (${NEEDLE}), ${Math.floor(big.lines / 9973)} ERROR lines.\nRead more: scratchpad_read("shell_exec_1", {grep: "FATAL|ERROR"})`,
          },
        }),
        step({
          step: 3,
          tool: 'scratchpad_read',
          outcome: 'builtin',
          rawArgs: { name: 'shell_exec_1', grep: 'FATAL' },
          resolvedArgs: { name: 'shell_exec_1', grep: 'FATAL' },
          result: {
            ok: true,
            chars: 96,
            observation: `[shell_exec_1: 1 of 1 matching lines]\n  ${needleLine}: ${NEEDLE}`,
          },
        }),
      ],
      final_message: `Shard 4242 failed a checksum at 13:00 (${NEEDLE}); the API returned 500s until it was rebuilt.`,
      final_kind: 'answer',
    },
    {
      ...base,
      turn_id: '0a9e4b7c-1111-4d2e-8f00-5c3b2a1d0e9f',
      ts_start: start + 60,
      ts_end: start + 61.5,
      user_query: 'Delete the broken shard and restart the API',
      steps: [
        step({
          step: 1,
          tool: 'shell_exec',
          outcome: 'denied',
          rawArgs: { command: 'rm -rf /var/lib/api/shards/4242' },
          resolvedArgs: { command: 'rm -rf /var/lib/api/shards/4242' },
          vaglio: {
            approved: false,
            reason: 'recursive delete outside the write roots',
            score: null,
            blocked_by: 'guard',
            judge_kind: 'rules',
            ts: '2026-11-18T10:14:21Z',
            rule: 'recursive-delete',
          },
          result: { ok: false, blocked_by: 'guard' },
        }),
      ],
      final_message:
        'I will not delete data outside the project; rebuild the shard with the admin tool instead.',
      final_kind: 'answer',
    },
  ];
  for (const record of records) await appendTurnLog(turnsDir, record);
  return { storeUrl, turnsDir, big, needleLine, turnId };
}
