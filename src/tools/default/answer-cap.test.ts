import { describe, expect, it } from 'vitest';
import { ScratchpadError } from '../../core/errors.js';
import { createScratchpad } from '../../service/scratchpad.js';
import { createMemoryDriver } from '../../stores/memory/index.js';
import { createNamedReadTool } from '../presets/named/named-tools.js';
import { runTool, type ScratchpadTool } from '../tool.js';
import { DEFAULT_MAX_ANSWER_BYTES } from './capped-read.js';
import { createDefaultPreset } from './default-preset.js';
import { createReadTool } from './read-tool.js';

const KIB = 1024;

/** 7.7 MB of numbered lines of about 77 bytes: the size one line-range read returned in the issue. */
function bigLog(): string {
  const lines: string[] = [];
  for (let line = 1; line <= 100_000; line++)
    lines.push(`${String(line).padStart(6, '0')} ${'é'.repeat(35)}`);
  return `${lines.join('\n')}\n`;
}

async function setup(options: { maxAnswerBytes?: number } = {}) {
  const session = createScratchpad({ driver: createMemoryDriver() }).session('s');
  const preset = createDefaultPreset(options);
  const tool = (name: string): ScratchpadTool =>
    preset.tools.find((item) => item.name === name) as ScratchpadTool;
  const call = (name: string, input: unknown) => runTool(tool(name), input, { session });
  return { session, call };
}

describe('default preset answers are capped', () => {
  it('a 7.7 MB line range comes back as whole lines within 32 KB, naming the call for the next lines', async () => {
    const { session, call } = await setup();
    const log = bigLog();
    expect(log.length).toBeGreaterThan(3_700_000);
    expect(Buffer.byteLength(log)).toBeGreaterThan(7_500_000);
    await session.write('log', log);
    const first = await call('scratchpad_read', { name: 'log', lines: '1:100000' });
    expect(first.isError).toBeFalsy();
    expect(Buffer.byteLength(first.text)).toBeLessThanOrEqual(DEFAULT_MAX_ANSWER_BYTES);
    const match = /scratchpad_read (\{"name":"log","lines":"(\d+):100000"\})\]$/.exec(first.text);
    expect(match).not.toBeNull();
    const next = Number(match?.[2]);
    expect(next).toBeGreaterThan(300);
    // The answer holds exactly lines 1 to next - 1, whole.
    const body = first.text.split('\n').slice(1, -2); // the slice ends with its line's newline
    expect(body[0]).toBe(`000001 ${'é'.repeat(35)}`);
    expect(body.at(-1)).toBe(`${String(next - 1).padStart(6, '0')} ${'é'.repeat(35)}`);
    expect(first.data).toMatchObject({ next: { lines: `${next}:100000` } });
    // The call it names continues exactly there.
    const second = await call('scratchpad_read', JSON.parse(match?.[1] as string));
    expect(second.text.split('\n')[1]).toBe(`${String(next).padStart(6, '0')} ${'é'.repeat(35)}`);
    expect(Buffer.byteLength(second.text)).toBeLessThanOrEqual(DEFAULT_MAX_ANSWER_BYTES);
  });

  it('offset, head and tail reads are cut by characters and name the offset and limit that continue', async () => {
    const { session, call } = await setup({ maxAnswerBytes: 8 * KIB });
    await session.write('text', 'ab'.repeat(50_000));
    const read = await call('scratchpad_read', { name: 'text', offset: 10, limit: 60_000 });
    expect(Buffer.byteLength(read.text)).toBeLessThanOrEqual(8 * KIB);
    const next = (read.data as { next: { offset: number; limit: number } }).next;
    expect(next.offset).toBeGreaterThan(10);
    expect(next.offset + next.limit).toBe(60_010);
    expect(read.text).toContain(
      `the rest of what you asked for: scratchpad_read {"name":"text","offset":${next.offset},"limit":${next.limit}}]`,
    );
    const tail = await call('scratchpad_read', { name: 'text', tail: 20_000 });
    expect(tail.data).toMatchObject({ start: 80_000, next: { offset: expect.any(Number) } });
    expect(Buffer.byteLength(tail.text)).toBeLessThanOrEqual(8 * KIB);
    // One line longer than the cap is cut by characters.
    await session.write('one-line', 'x'.repeat(50_000));
    const line = await call('scratchpad_read', { name: 'one-line', lines: '1:1' });
    expect(line.data).toMatchObject({ next: { offset: expect.any(Number), limit: expect.any(Number) } });
    expect(Buffer.byteLength(line.text)).toBeLessThanOrEqual(8 * KIB);
  });

  it('a grep and a list keep what fits and say where they stopped', async () => {
    const { session, call } = await setup({ maxAnswerBytes: 4 * KIB });
    await session.write('log', bigLog().slice(0, 400_000));
    const grep = await call('scratchpad_read', { name: 'log', regex: 'é', max_matches: 10_000, context: 2 });
    expect(Buffer.byteLength(grep.text)).toBeLessThanOrEqual(4 * KIB);
    expect(grep.text).toMatch(/cut to fit one answer \(4\.1 KB\) after \d+ matching lines, at line \d+/);
    for (let index = 0; index < 300; index++)
      await session.write(`entry-${String(index).padStart(3, '0')}`, 'x');
    const list = await call('scratchpad_list', { limit: 1000 });
    expect(Buffer.byteLength(list.text)).toBeLessThanOrEqual(4 * KIB);
    const { next, entries } = list.data as { next: { cursor: string }; entries: Array<{ name: string }> };
    expect(entries.length).toBeLessThan(300);
    expect(list.text).toContain(
      `call scratchpad_list with cursor: ${JSON.stringify(next.cursor)} to continue`,
    );
    const more = await call('scratchpad_list', { limit: 1000, cursor: next.cursor });
    const { entries: following } = more.data as { entries: Array<{ name: string }> };
    expect(following[0]?.name).toBe(`entry-${String(entries.length).padStart(3, '0')}`);
  });

  it("the cap is the default preset's own: the library tool and seed 004 return what was asked", async () => {
    const session = createScratchpad({ driver: createMemoryDriver() }).session('s');
    await session.write('big', 'é'.repeat(40_000));
    const plain = await runTool(createReadTool(), { name: 'big', limit: 40_000 }, { session });
    expect(plain.text).toContain('é'.repeat(40_000));
    const named = await runTool(createNamedReadTool(), { name: 'big', offset: 0 }, { session });
    expect(named.text).toContain('é'.repeat(30_000));
    expect(() => createDefaultPreset({ maxAnswerBytes: 100 })).toThrow(ScratchpadError);
  });
});
