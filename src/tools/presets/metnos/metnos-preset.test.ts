import { describe, expect, it } from 'vitest';
import { createScratchpad } from '../../../service/scratchpad.js';
import { createMemoryDriver } from '../../../stores/memory/index.js';
import { runTool, type ScratchpadTool, toolJsonSchema } from '../../tool.js';
import { createMetnosPreset } from './metnos-preset.js';

async function setup() {
  const session = createScratchpad({ driver: createMemoryDriver() }).session('s');
  const tool = createMetnosPreset().tools[0] as ScratchpadTool;
  const log = `${'INFO event\n'.repeat(500)}ERROR LAST_CRITICAL_EVENT\n`;
  const { entry } = await session.write('fs_read_1', log, { turn: 't1', step: 1, source: 'fs_read' });
  const call = (input: unknown, turn?: string) =>
    runTool(tool, input, turn === undefined ? { session } : { session, turn });
  return { session, tool, log, entry, call };
}

describe('metnos preset (seed 000)', () => {
  it('shows the seed schema verbatim', async () => {
    const { tool } = await setup();
    expect(tool.name).toBe('scratchpad_read');
    expect(tool.description).toBe('Reads from the scratchpad an observation previously saved...');
    expect(toolJsonSchema(tool)).toEqual({
      type: 'object',
      required: ['scratchpad_id'],
      properties: {
        scratchpad_id: {
          type: 'string',
          description: "Id obtained from the 'scratchpad_id' field of a previous observation.",
        },
        mode: { type: 'string', enum: ['full', 'head', 'tail', 'range'], default: 'head' },
        n: {
          type: 'integer',
          description: 'For mode head/tail: number of characters to read. Default 2000.',
        },
        start: { type: 'integer', description: 'For mode range: start index.' },
        end: { type: 'integer', description: 'For mode range: end index (exclusive).' },
      },
    });
  });

  it('reads head (default 2000), tail, range and full as an executor observation', async () => {
    const { entry, log, call } = await setup();
    const head = JSON.parse((await call({ scratchpad_id: entry.id })).text);
    expect(head).toEqual({
      ok: true,
      content: log.slice(0, 2000),
      metadata: {
        scratchpad_id: entry.id,
        mode: 'head',
        start: 0,
        end: 2000,
        total_chars: log.length,
        kind: 'text',
      },
    });
    const tail = JSON.parse((await call({ scratchpad_id: entry.id, mode: 'tail', n: 26 })).text);
    expect(tail.content).toBe('ERROR LAST_CRITICAL_EVENT\n');
    const range = JSON.parse(
      (await call({ scratchpad_id: entry.id, mode: 'range', start: 11, end: 22 })).text,
    );
    expect(range.content).toBe('INFO event\n');
    const negative = JSON.parse((await call({ scratchpad_id: entry.id, mode: 'range', start: -26 })).text);
    expect(negative.content).toBe('ERROR LAST_CRITICAL_EVENT\n');
    expect(JSON.parse((await call({ scratchpad_id: entry.id, mode: 'full' })).text).content).toBe(log);
  });

  it('isolates turns and reports errors as {ok:false}', async () => {
    const { entry, call } = await setup();
    const other = await call({ scratchpad_id: entry.id }, 't2');
    expect(other.isError).toBe(true);
    expect(JSON.parse(other.text)).toEqual({
      ok: false,
      error: `Error (ENTRY_NOT_FOUND): No scratchpad entry ${entry.id} in the current turn. Use the 'scratchpad_id' of an observation from this turn.`,
    });
    expect(JSON.parse((await call({ scratchpad_id: entry.id }, 't1')).text).ok).toBe(true);
    const missing = await call({ scratchpad_id: 'ffffffffffffffff' });
    expect(JSON.parse(missing.text).error).toContain('No entry with id ffffffffffffffff');
    expect((await call({ scratchpad_id: entry.id, mode: 'middle' })).isError).toBe(true);
  });

  it('reads binary entries as base64', async () => {
    const { session, call } = await setup();
    const { entry } = await session.write('zip_1', Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0xff, 0x00]));
    const result = JSON.parse((await call({ scratchpad_id: entry.id, mode: 'head', n: 4 })).text);
    expect(result).toMatchObject({
      ok: true,
      content: Buffer.from([0x50, 0x4b, 0x03, 0x04]).toString('base64'),
      metadata: { kind: 'binary', encoding: 'base64', total_bytes: 6 },
    });
  });
});
