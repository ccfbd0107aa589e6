import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessionTranscript } from './session-transcript.js';

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'transcript-'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('SessionTranscript', () => {
  it('appends custom entries, one JSON object per line, creating the directory', async () => {
    const path = join(directory, 'nested', 'session.jsonl');
    const transcript = createSessionTranscript({ path, now: () => Date.UTC(2026, 1, 28, 12) });
    const entry = await transcript.appendCustomEntry('openclaw:scratchpad', '## Plan\n1. Fix X');
    expect(entry).toEqual({
      type: 'custom',
      customType: 'openclaw:scratchpad',
      data: '## Plan\n1. Fix X',
      timestamp: '2026-02-28T12:00:00.000Z',
    });
    await transcript.appendCustomEntry('other', { a: 1 });
    const lines = (await readFile(path, 'utf8')).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(JSON.parse(lines[0]!)).toEqual(entry);
  });

  it('reads the last entry of a type among the host entries, and nothing from a missing file', async () => {
    const path = join(directory, 'session.jsonl');
    const transcript = createSessionTranscript({ path });
    expect(await transcript.lastCustomEntry('openclaw:scratchpad')).toBeUndefined();
    await writeFile(
      path,
      [
        JSON.stringify({ type: 'session', version: 3, id: 'abc' }),
        JSON.stringify({
          type: 'message',
          message: { role: 'user', content: 'openclaw:scratchpad is mentioned here' },
        }),
        '',
      ].join('\n'),
    );
    await transcript.appendCustomEntry('openclaw:scratchpad', 'v1');
    await transcript.appendCustomEntry('attachments', 'x');
    await transcript.appendCustomEntry('openclaw:scratchpad', 'v2');
    await transcript.appendCustomEntry('attachments', 'y');
    expect((await transcript.lastCustomEntry('openclaw:scratchpad'))?.data).toBe('v2');
    const all = [];
    for await (const entry of transcript.customEntries()) all.push(entry.data);
    expect(all).toEqual(['v1', 'x', 'v2', 'y']);
  });

  it('survives a truncated last line: earlier entries stay readable and the next append starts a new line', async () => {
    const path = join(directory, 'session.jsonl');
    const transcript = createSessionTranscript({ path, durable: false });
    await transcript.appendCustomEntry('openclaw:scratchpad', 'first');
    await transcript.appendCustomEntry('openclaw:scratchpad', 'second');
    await appendFile(path, '{"type":"custom","customType":"openclaw:scratchpad","data":"thi');
    expect((await transcript.lastCustomEntry('openclaw:scratchpad'))?.data).toBe('second');
    await transcript.appendCustomEntry('openclaw:scratchpad', 'fourth');
    const entries = [];
    for await (const entry of transcript.customEntries('openclaw:scratchpad')) entries.push(entry.data);
    expect(entries).toEqual(['first', 'second', 'fourth']);
    const last = await transcript.lastCustomEntry('openclaw:scratchpad');
    const lines = (await readFile(path, 'utf8')).split('\n');
    expect(lines.slice(-3)).toEqual([
      '{"type":"custom","customType":"openclaw:scratchpad","data":"thi',
      JSON.stringify(last),
      '',
    ]);
  });

  it('keeps concurrent appends whole and in call order', async () => {
    const path = join(directory, 'session.jsonl');
    const transcript = createSessionTranscript({ path });
    await Promise.all(
      Array.from({ length: 20 }, (_, index) => transcript.appendCustomEntry('n', `entry ${index}\nline 2`)),
    );
    const data = [];
    for await (const entry of transcript.customEntries('n')) data.push(entry.data);
    expect(data).toEqual(Array.from({ length: 20 }, (_, index) => `entry ${index}\nline 2`));
  });

  it('rejects an empty custom type and an empty path', async () => {
    const transcript = createSessionTranscript({ path: join(directory, 's.jsonl') });
    await expect(transcript.appendCustomEntry('', 'x')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(() => createSessionTranscript({ path: '' })).toThrow(/file path/);
  });
});
