import { describe, expect, it } from 'vitest';
import { createScratchpad } from '../../../service/scratchpad.js';
import { createMemoryDriver } from '../../../stores/memory/index.js';
import { runTool, type ScratchpadTool, toolJsonSchema } from '../../tool.js';
import { createNamedPreset } from './named-preset.js';

function setup() {
  const session = createScratchpad({ driver: createMemoryDriver() }).session('s');
  const preset = createNamedPreset();
  const tool = (name: string) => preset.tools.find((item) => item.name === name) as ScratchpadTool;
  const call = (name: string, input: unknown) => runTool(tool(name), input, { session });
  return { session, call, tool };
}

describe('named preset (seed 004)', () => {
  it('has the seed parameters and defaults', () => {
    const { tool } = setup();
    const read = toolJsonSchema(tool('scratchpad_read'));
    expect(read.required).toEqual(['name']);
    expect(read.properties).toMatchObject({
      offset: { type: 'integer', default: 0 },
      limit: { type: 'integer', default: 30000 },
      regex: { type: 'string', description: 'Search the entry and return matching lines (max 100)' },
    });
    expect(toolJsonSchema(tool('scratchpad_edit')).properties).toMatchObject({
      replace_all: { type: 'boolean', default: false },
    });
    expect(toolJsonSchema(tool('scratchpad_list')).properties).toEqual({});
  });

  it('writes, reads with offset/limit, searches with regex, edits, lists and deletes', async () => {
    const { call } = setup();
    expect((await call('scratchpad_write', { name: 'notes', content: 'alpha\nbeta\ngamma beta' })).text).toBe(
      'Stored "notes" in the scratchpad (21 characters).',
    );
    expect(
      (await call('scratchpad_write', { name: 'notes', content: 'alpha\nbeta\ngamma beta!' })).text,
    ).toBe('Overwrote "notes" in the scratchpad (22 characters; it had 21).');
    expect((await call('scratchpad_read', { name: 'notes' })).text).toBe('alpha\nbeta\ngamma beta!');
    expect((await call('scratchpad_read', { name: 'notes', offset: 6, limit: 4 })).text).toBe(
      'beta\n\n[Showing characters 6–10 of 22. Use offset=10 to read more.]',
    );
    expect((await call('scratchpad_read', { name: 'notes', regex: 'beta' })).text).toBe(
      '2: beta\n3: gamma beta!',
    );
    expect((await call('scratchpad_read', { name: 'notes', regex: 'zeta' })).text).toBe(
      'No lines in "notes" match /zeta/.',
    );
    expect(
      (
        await call('scratchpad_edit', {
          name: 'notes',
          old_string: 'beta',
          new_string: 'B',
          replace_all: true,
        })
      ).text,
    ).toBe('Edited "notes": replaced 2 occurrences.');
    expect((await call('scratchpad_edit', { name: 'notes', content: 'new', old_string: 'a' })).isError).toBe(
      true,
    );
    expect((await call('scratchpad_list', {})).text).toMatch(
      /^notes \(16 characters, created \d{4}-\d\d-\d\dT/,
    );
    expect((await call('scratchpad_delete', { name: 'notes' })).text).toBe(
      'Deleted "notes" from the scratchpad.',
    );
    expect((await call('scratchpad_list', {})).text).toBe('The scratchpad is empty.');
    expect((await call('scratchpad_read', { name: 'notes' })).text).toBe(
      'Error (ENTRY_NOT_FOUND): No entry "notes" in session "s". The session has no entries.',
    );
  });

  it('caps regex results at 100 lines', async () => {
    const { call } = setup();
    await call('scratchpad_write', {
      name: 'big',
      content: Array.from({ length: 250 }, (_, index) => `hit ${index}`).join('\n'),
    });
    const text = (await call('scratchpad_read', { name: 'big', regex: 'hit' })).text;
    expect(text.split('\n').filter((line) => /^\d+: /.test(line)).length).toBe(100);
    expect(text.endsWith('[250 lines match; showing the first 100]')).toBe(true);
  });
});
