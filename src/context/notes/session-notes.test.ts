import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScratchpadError } from '../../core/errors.js';
import { createScratchpad } from '../../service/scratchpad.js';
import { createMemoryDriver } from '../../stores/memory/memory-driver.js';
import {
  createSessionNotes,
  NOTES_CUSTOM_TYPE,
  NOTES_ENTRY,
  NOTES_PREVIOUS_ENTRY,
  NOTES_UNTRUNCATED_ENTRY,
} from './session-notes.js';
import { createSessionTranscript } from './session-transcript.js';

const PLAN = '## Plan\n1. Fix X\n2. Test Y';
let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'notes-'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

function newSession(id = 's1') {
  return createScratchpad({ driver: createMemoryDriver() }).session(id);
}

describe('SessionNotes: messages and budget', () => {
  it("answers a replace with seed 001's update message and stores the notes pinned, without TTL", async () => {
    const session = createScratchpad({ driver: createMemoryDriver(), defaultTtlMs: 1000 }).session('s1');
    const notes = createSessionNotes({ session });
    const result = await notes.set(PLAN);
    expect(result.message).toBe('Scratchpad updated (12 tokens / 2000 budget)');
    expect(result).toMatchObject({ outcome: 'updated', tokens: 12, budget: 2000, version: 1, content: PLAN });
    expect(await notes.get()).toBe(PLAN);
    const entry = await session.get(NOTES_ENTRY);
    expect(entry).toMatchObject({ pinned: true, expiresAt: null, kind: 'text', metadata: { tokens: 12 } });
  });

  it('appends on a new line and reports the total', async () => {
    const notes = createSessionNotes({ session: newSession() });
    await notes.set(PLAN);
    const result = await notes.set('- step one', 'append');
    expect(result.message).toBe('Scratchpad updated (16 tokens / 2000 budget)');
    expect(await notes.get()).toBe(`${PLAN}\n- step one`);
    expect((await notes.set('x', 'append')).content).toBe(`${PLAN}\n- step one\nx`);
    const empty = createSessionNotes({ session: newSession() });
    expect((await empty.set('first', 'append')).content).toBe('first');
  });

  it('truncates a replace over budget by tokens and keeps the full text recoverable', async () => {
    const session = newSession();
    const notes = createSessionNotes({ session, maxTokens: 20 });
    const content = 'word '.repeat(30);
    const result = await notes.set(content);
    expect(result.message).toBe('Scratchpad truncated to 20 tokens (original: 31). Consider summarizing.');
    expect(result.outcome).toBe('truncated');
    const stored = await notes.get();
    expect(content.startsWith(stored)).toBe(true);
    expect(countTokens(stored)).toBeLessThanOrEqual(20);
    expect(result.tokens).toBe(countTokens(stored));
    expect((await session.read(NOTES_UNTRUNCATED_ENTRY)).content).toBe(content);
  });

  it('rejects an append over budget with the exact message and changes nothing', async () => {
    const session = newSession();
    const notes = createSessionNotes({ session, maxTokens: 20 });
    await notes.set('word '.repeat(10));
    const before = await session.get(NOTES_ENTRY);
    const result = await notes.set('word '.repeat(10), 'append');
    expect(result.message).toBe(
      "Append would exceed 20 token budget (current: 11, append: 11). Use mode 'replace' to rewrite, or reduce content.",
    );
    expect(result).toMatchObject({
      outcome: 'rejected',
      tokens: 11,
      appendTokens: 11,
      version: before.version,
    });
    expect(await notes.get()).toBe('word '.repeat(10));
    expect((await session.get(NOTES_ENTRY)).version).toBe(before.version);
  });

  it('clears on an empty replace, says where the previous notes are, and can give them back', async () => {
    const session = newSession();
    const transcript = createSessionTranscript({ path: join(directory, 's1.jsonl') });
    const notes = createSessionNotes({ session, transcript });
    await notes.set(PLAN);
    const result = await notes.set('');
    expect(result.message).toBe(
      'Scratchpad cleared (0 tokens / 2000 budget). The previous content (12 tokens) is kept in entry "_session.notes.previous" and can be restored.',
    );
    expect(result).toMatchObject({
      outcome: 'cleared',
      tokens: 0,
      previous: { tokens: 12, entry: NOTES_PREVIOUS_ENTRY },
    });
    expect(await notes.get()).toBe('');
    expect(await notes.previous()).toBe(PLAN);
    const history = [];
    for await (const entry of transcript.customEntries(NOTES_CUSTOM_TYPE)) history.push(entry.data);
    expect(history).toEqual([PLAN, '']);
    expect((await notes.set('   \n')).message).toBe('Scratchpad cleared (0 tokens / 2000 budget).');
    expect(await notes.inject('hi')).toBe('hi');
  });

  it('rejects a bad budget, content or mode', async () => {
    expect(() => createSessionNotes({ session: newSession(), maxTokens: 0 })).toThrow(ScratchpadError);
    expect(() => createSessionNotes({ session: newSession(), maxTokens: 1.5 })).toThrow(/maxTokens/);
    const notes = createSessionNotes({ session: newSession() });
    await expect(notes.set(42 as unknown as string)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(notes.set('x', 'prepend' as 'append')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('SessionNotes: store, concurrency and injection', () => {
  it('persists in the store across two Scratchpad instances on the same driver', async () => {
    const driver = createMemoryDriver();
    await createSessionNotes({ session: createScratchpad({ driver }).session('s1') }).set(PLAN);
    const other = createSessionNotes({ session: createScratchpad({ driver }).session('s1') });
    expect(await other.get()).toBe(PLAN);
    expect(await createSessionNotes({ session: createScratchpad({ driver }).session('s2') }).get()).toBe('');
  });

  it('refuses a replace based on notes someone else changed, showing the current content', async () => {
    const driver = createMemoryDriver();
    const first = createSessionNotes({ session: createScratchpad({ driver }).session('s1') });
    const second = createSessionNotes({ session: createScratchpad({ driver }).session('s1') });
    await first.set('v1');
    expect(await second.get()).toBe('v1');
    expect(await first.get()).toBe('v1');
    await first.set('first agent wrote this');
    const conflict = await second.set('second agent overwrites').catch((error: unknown) => error);
    expect(ScratchpadError.hasCode(conflict, 'VERSION_CONFLICT')).toBe(true);
    expect((conflict as ScratchpadError).message).toContain('Current content:\nfirst agent wrote this');
    expect(await first.get()).toBe('first agent wrote this');
    const retried = await second.set('merged: first agent wrote this + second');
    expect(retried.version).toBe(3);
    expect(await first.get()).toBe('merged: first agent wrote this + second');
  });

  it('checks an explicit ifVersion', async () => {
    const notes = createSessionNotes({ session: newSession() });
    await notes.set('v1');
    await expect(notes.set('v2', 'replace', { ifVersion: 5 })).rejects.toMatchObject({
      code: 'VERSION_CONFLICT',
    });
    expect((await notes.set('v2', 'replace', { ifVersion: 1 })).version).toBe(2);
  });

  it('keeps every concurrent append, and an append does not mark an unseen change as seen', async () => {
    const driver = createMemoryDriver();
    const agents = Array.from({ length: 4 }, () =>
      createSessionNotes({ session: createScratchpad({ driver }).session('s1') }),
    );
    await Promise.all(agents.map((agent, index) => agent.set(`line ${index}`, 'append')));
    const lines = (await agents[0]!.get()).split('\n').sort();
    expect(lines).toEqual(['line 0', 'line 1', 'line 2', 'line 3']);
    const [a, b] = agents as [(typeof agents)[0], (typeof agents)[0]];
    await a.get();
    await b.get();
    await b.set('b rewrote everything');
    await a.set('a adds', 'append');
    await expect(a.set('a replaces from its old view')).rejects.toMatchObject({ code: 'VERSION_CONFLICT' });
  });

  it('injects a byte-identical block while the notes do not change', async () => {
    const notes = createSessionNotes({ session: newSession() });
    await notes.set(PLAN);
    const first = await notes.inject('continue with step 2');
    const second = await notes.inject('continue with step 2');
    expect(first).toBe(
      '[Session Scratchpad - your persistent working memory]\n## Plan\n1. Fix X\n2. Test Y\n[End Scratchpad]\n\ncontinue with step 2',
    );
    expect(Buffer.from(second)).toEqual(Buffer.from(first));
    await notes.set('- done', 'append');
    expect(await notes.inject('continue with step 2')).not.toBe(first);
    expect(await notes.inject('go', { steer: 'Steer.' })).toMatch(/^Steer\.\n\n\[Session Scratchpad/);
  });
});

describe('SessionNotes: resume', () => {
  it('restores from the JSONL transcript into an empty store, despite a truncated last line', async () => {
    const path = join(directory, 'session.jsonl');
    const before = createSessionNotes({
      session: newSession(),
      transcript: createSessionTranscript({ path }),
    });
    await before.set(PLAN);
    await before.set('- step one', 'append');
    await appendFile(path, '{"type":"custom","customType":"openclaw:scratchpad","data":"## Pl');
    const session = newSession();
    const after = createSessionNotes({ session, transcript: createSessionTranscript({ path }) });
    expect(await after.get()).toBe('');
    const restored = await after.restore();
    expect(restored).toEqual({ content: `${PLAN}\n- step one`, version: 1, source: 'transcript' });
    expect((await session.read(NOTES_ENTRY)).content).toBe(`${PLAN}\n- step one`);
    expect(await after.inject('what next?')).toContain(`${PLAN}\n- step one\n[End Scratchpad]\n\nwhat next?`);
    await after.set('after resume');
    const lines = (await readFile(path, 'utf8')).split('\n').filter((line) => line.length > 0);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({
      type: 'custom',
      customType: 'openclaw:scratchpad',
      data: 'after resume',
    });
  });

  it('keeps the store when it is as new as the transcript, and reports none when neither has notes', async () => {
    const path = join(directory, 'session.jsonl');
    const session = newSession();
    const notes = createSessionNotes({ session, transcript: createSessionTranscript({ path }) });
    expect(await notes.restore()).toEqual({ content: '', version: 0, source: 'none' });
    await notes.set(PLAN);
    const again = createSessionNotes({ session, transcript: createSessionTranscript({ path }) });
    expect(await again.restore()).toEqual({ content: PLAN, version: 1, source: 'store' });
  });

  it('takes the transcript when its last entry is newer than the store', async () => {
    const path = join(directory, 'session.jsonl');
    let clock = 1_000;
    const session = createScratchpad({ driver: createMemoryDriver(), now: () => clock }).session('s1');
    await createSessionNotes({ session }).set('stale store copy');
    clock = 5_000;
    await createSessionTranscript({ path, now: () => clock }).appendCustomEntry(
      NOTES_CUSTOM_TYPE,
      'newer from transcript',
    );
    const notes = createSessionNotes({ session, transcript: createSessionTranscript({ path }) });
    expect(await notes.restore()).toEqual({
      content: 'newer from transcript',
      version: 2,
      source: 'transcript',
    });
    expect(await notes.previous()).toBe('stale store copy');
  });
});
