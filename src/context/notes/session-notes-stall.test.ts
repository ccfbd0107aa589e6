import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { probeEventLoop, TEST_STALL_BOUND_MS } from '../../../test/support/event-loop-probe.js';
import { createScratchpad } from '../../service/scratchpad.js';
import { createMemoryDriver } from '../../stores/memory/memory-driver.js';
import { loadTokenCounter } from '../tokens/token-counter.js';
import { createSessionNotes, NOTES_UNTRUNCATED_ENTRY } from './session-notes.js';
import { createSessionTranscript } from './session-transcript.js';

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'notes-stall-'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** 2 MB of letters without a space: one pre-token, which a whole-text BPE count takes minutes on. */
function letters(length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz';
  let state = 11;
  let text = '';
  for (let index = 0; index < length; index += 1) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    text += alphabet[(state >> 8) % alphabet.length];
  }
  return text;
}

describe('SessionNotes on 2 MB of notes', () => {
  it('replaces and appends without stalling the event loop, truncating to the budget', async () => {
    await loadTokenCounter();
    const session = createScratchpad({ driver: createMemoryDriver() }).session('s1');
    const transcript = createSessionTranscript({ path: join(directory, 'transcript.jsonl') });
    const notes = createSessionNotes({ session, transcript });
    const content = letters(2_000_000);

    const replaced = await probeEventLoop(() => notes.set(content));
    expect(replaced.value.outcome).toBe('truncated');
    expect(replaced.value.tokens).toBeLessThanOrEqual(2_000);
    expect((await session.read(NOTES_UNTRUNCATED_ENTRY)).content).toBe(content);
    expect(replaced.worstBusyMs).toBeLessThan(TEST_STALL_BOUND_MS);

    const appended = await probeEventLoop(() => notes.set(content, 'append'));
    expect(appended.value.outcome).toBe('rejected');
    expect(appended.worstBusyMs).toBeLessThan(TEST_STALL_BOUND_MS);
  });

  it('writes 2 MB of one character without stalling the event loop', async () => {
    await loadTokenCounter();
    const session = createScratchpad({ driver: createMemoryDriver() }).session('s2');
    const transcript = createSessionTranscript({ path: join(directory, 'transcript.jsonl') });
    const notes = createSessionNotes({ session, transcript });
    const probe = await probeEventLoop(() => notes.set('x'.repeat(2_000_000)));
    expect(probe.value.outcome).toBe('truncated');
    expect(probe.value.tokens).toBeLessThanOrEqual(2_000);
    expect(probe.worstBusyMs).toBeLessThan(TEST_STALL_BOUND_MS);
  });
});
