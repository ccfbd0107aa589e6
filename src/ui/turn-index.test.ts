import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_TURN_LINE_BYTES, TurnIndex } from './turn-index.js';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function line(turnId: string, tsStart: number, extra: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ turn_id: turnId, session: 's', ts_start: tsStart, steps: [], ...extra })}\n`;
}

describe('TurnIndex', () => {
  it('indexes appended lines only once, waits for an unfinished line, skips what is not a turn', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'turn-index-'));
    directories.push(directory);
    const file = join(directory, '2026-11-24.jsonl');
    writeFileSync(file, `${line('a', 1)}not json\n{"no":"turn"}\n${line('b', 2).slice(0, 20)}`);
    writeFileSync(join(directory, 'notes.txt'), line('ignored', 9));
    const index = new TurnIndex(directory);
    await index.refresh(0);
    expect(index.turns().map((turn) => turn.turnId)).toEqual(['a']);
    expect(index.skipped).toBe(2);
    appendFileSync(file, `${line('b', 2).slice(20)}${line('c', 3)}`);
    await index.refresh(0);
    expect(index.turns().map((turn) => turn.turnId)).toEqual(['c', 'b', 'a']);
    const b = index.turn('b');
    expect(b && (await index.record(b)).turn_id).toBe('b');
    expect(index.skipped).toBe(2);
  });

  it('skips a line over the limit without holding it, and re-reads a file that was truncated', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'turn-index-'));
    directories.push(directory);
    const file = join(directory, '2026-11-25.jsonl');
    writeFileSync(
      file,
      `${line('big', 1, { user_query: 'x'.repeat(MAX_TURN_LINE_BYTES + 10) })}${line('small', 2)}`,
    );
    const index = new TurnIndex(directory);
    await index.refresh(0);
    expect(index.turns().map((turn) => turn.turnId)).toEqual(['small']);
    expect(index.skipped).toBe(1);
    writeFileSync(file, line('fresh', 5));
    await index.refresh(0);
    expect(index.turns().map((turn) => turn.turnId)).toEqual(['fresh']);
  });

  it('maps an offloaded step to its entry and reads nothing when the directory does not exist', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'turn-index-'));
    directories.push(directory);
    writeFileSync(
      join(directory, '2026-11-26.jsonl'),
      line('t', 1, {
        steps: [
          { step: 2, tool: 'bash', result: { offloaded: true, entry: 'e1', bytes: 500, shownChars: 40 } },
        ],
      }),
    );
    const index = new TurnIndex(directory);
    await index.refresh(0);
    expect(index.stepOfEntry('e1')).toMatchObject({ step: 2, turn: { turnId: 't' } });
    expect(index.turn('t')?.steps).toEqual([
      { step: 2, tool: 'bash', outcome: '', shown: 40, stored: 500, entry: 'e1' },
    ]);
    const missing = new TurnIndex(join(directory, 'missing'));
    await missing.refresh(0);
    expect(missing.turns()).toEqual([]);
  });
});
