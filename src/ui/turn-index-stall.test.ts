import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeEventLoop, TEST_STALL_BOUND_MS } from '../testing/event-loop-probe.js';
import { TurnIndex } from './turn-index.js';

const directory = mkdtempSync(join(tmpdir(), 'turn-index-stall-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('TurnIndex stalls', () => {
  it('indexes 20 MB of turns without blocking the event loop', async () => {
    const step = { step: 1, tool: 'shell_exec', outcome: 'executed', result: { ok: true, chars: 900 } };
    const lines: string[] = [];
    for (let index = 0; index < 20_000; index += 1) {
      lines.push(
        JSON.stringify({
          turn_id: `t${index}`,
          session: 's',
          ts_start: index,
          steps: [step],
          user_query: 'q'.repeat(800),
        }),
      );
    }
    writeFileSync(join(directory, '2026-11-24.jsonl'), `${lines.join('\n')}\n`);
    const index = new TurnIndex(directory);
    const probe = await probeEventLoop(() => index.refresh(0));
    expect(index.turns()).toHaveLength(20_000);
    expect(index.skipped).toBe(0);
    expect(probe.worstBusyMs).toBeLessThan(TEST_STALL_BOUND_MS);
  }, 60_000);
});
