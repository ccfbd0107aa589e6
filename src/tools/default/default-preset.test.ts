import { describe, expect, it } from 'vitest';
import { createScratchpad } from '../../service/scratchpad.js';
import { createMemoryDriver } from '../../stores/memory/index.js';
import { runTool, type ScratchpadTool, toolJsonSchema } from '../tool.js';
import { createDefaultPreset } from './default-preset.js';
import { parseLines } from './read-tool.js';

function setup() {
  const clock = { now: 1_700_000_000_000 };
  const session = createScratchpad({ driver: createMemoryDriver(), now: () => clock.now }).session('s');
  const preset = createDefaultPreset({ now: () => clock.now });
  const tool = (name: string): ScratchpadTool =>
    preset.tools.find((item) => item.name === name) as ScratchpadTool;
  const call = (name: string, input: unknown) => runTool(tool(name), input, { session, turn: 't1', step: 1 });
  return { session, preset, call, clock };
}

describe('default preset', () => {
  it('offers six tools with JSON Schemas a model can read', () => {
    const { preset } = setup();
    expect(preset.tools.map((tool) => tool.name)).toEqual([
      'scratchpad_write',
      'scratchpad_read',
      'scratchpad_edit',
      'scratchpad_list',
      'scratchpad_delete',
      'scratchpad_search',
    ]);
    for (const tool of preset.tools) {
      const schema = toolJsonSchema(tool);
      expect(schema.type).toBe('object');
      expect(JSON.stringify(schema)).not.toContain('$schema');
      expect(tool.description.length).toBeGreaterThan(40);
    }
    expect(toolJsonSchema(preset.tools[0] as ScratchpadTool).required).toEqual(['name', 'content']);
    expect(preset.systemPrompt).toContain('scratchpad_read');
  });

  it('write acknowledges what happened: created, replaced, appended', async () => {
    const { call, session } = setup();
    expect((await call('scratchpad_write', { name: 'plan', content: 'step 1\nstep 2' })).text).toBe(
      'Created "plan" (13 chars, 2 lines, 13 B, version 1). It is kept for this session (no expiry).',
    );
    expect((await call('scratchpad_write', { name: 'plan', content: 'only one' })).text).toBe(
      'Replaced "plan" (8 chars, 1 lines, 8 B, version 2); version 1 had 13 chars. It is kept for this session (no expiry).',
    );
    expect((await call('scratchpad_write', { name: 'plan', content: '\nmore', mode: 'append' })).text).toBe(
      'Appended 5 bytes to "plan" (13 chars, 2 lines, 13 B, version 3); it was version 2. It is kept for this session (no expiry).',
    );
    const entry = await session.get('plan');
    expect(entry).toMatchObject({ turn: 't1', step: 1, source: 'scratchpad_write' });
    const conflict = await call('scratchpad_write', { name: 'plan', content: 'x', if_version: 1 });
    expect(conflict.isError).toBe(true);
    expect(conflict.text).toBe(
      'Error (VERSION_CONFLICT): "plan" is at version 3, not 1: someone else changed it. Read it again, then retry with ifVersion 3.',
    );
  });

  it('read pages, slices lines, greps, and says how to continue', async () => {
    const { call, session } = setup();
    const lines = Array.from({ length: 300 }, (_, index) =>
      index === 200 ? 'ERROR disk full' : `line ${index + 1}`,
    );
    await session.write('log', lines.join('\n'));
    const page = await call('scratchpad_read', { name: 'log', limit: 20 });
    expect(page.text).toBe(
      `[log: chars 0–20 of 2,598; lines 1–3 of 300]\nline 1\nline 2\nline 3\n[2,578 more chars after this: scratchpad_read {"name": "log", "offset": 20}]`,
    );
    const slice = await call('scratchpad_read', { name: 'log', lines: '-2:' });
    expect(slice.text).toBe(
      '[log: chars 2,581–2,598 of 2,598; lines 299–300 of 300]\nline 299\nline 300\n[2,581 chars before it]',
    );
    const grep = await call('scratchpad_read', {
      name: 'log',
      regex: 'error',
      ignore_case: true,
      context: 1,
    });
    expect(grep.text).toBe(
      '[log: 1 matching line of 300 lines for /error/]\n200- line 200\n201: ERROR disk full\n202- line 202\n[read around a match with scratchpad_read {"name": "log", "lines": "A:B"}]',
    );
    const whole = await call('scratchpad_read', { name: 'log', lines: '1:300' });
    expect(whole.text.startsWith('[log: chars 0–2,598 of 2,598; lines 1–300 of 300]\nline 1\n')).toBe(true);
  });

  it('read turns mistakes into errors the model can act on', async () => {
    const { call, session } = setup();
    await session.write('log', 'abc');
    expect((await call('scratchpad_read', { name: 'nope' })).text).toBe(
      'Error (ENTRY_NOT_FOUND): No entry "nope" in session "s". Entries in this session: log.',
    );
    expect((await call('scratchpad_read', {})).text).toContain('give name (or id)');
    expect((await call('scratchpad_read', { name: 'log', head: 1, tail: 1 })).text).toContain(
      'only one way to slice',
    );
    expect((await call('scratchpad_read', { name: 'log', regex: '(?<=a)b' })).text).toContain(
      'INVALID_REGEX',
    );
    expect((await call('scratchpad_read', { name: 'log', lines: 'x:y' })).text).toContain(
      'Invalid line range',
    );
    expect((await call('scratchpad_read', { name: 'log', offset: 10, limit: 5 })).text).toBe(
      'Error (SLICE_OUT_OF_RANGE): Start 10 is past the end: the entry has 3 chars. Use a start between 0 and 3.',
    );
    const invalid = await call('scratchpad_read', { name: 'log', limit: 'ten' });
    expect(invalid.isError).toBe(true);
    expect(invalid.text).toContain('Invalid arguments for scratchpad_read: limit:');
  });

  it('edit, list, delete and search', async () => {
    const { call, clock } = setup();
    await call('scratchpad_write', { name: 'notes', content: 'alpha beta\ngamma beta' });
    clock.now += 90_000;
    expect(
      (await call('scratchpad_edit', { name: 'notes', old_string: 'beta', new_string: 'B' })).text,
    ).toContain('EDIT_AMBIGUOUS');
    expect(
      (
        await call('scratchpad_edit', {
          name: 'notes',
          old_string: 'beta',
          new_string: 'B',
          replace_all: true,
        })
      ).text,
    ).toBe('Replaced 2 occurrences (lines 1, 2) in "notes" (15 chars, 2 lines, 15 B, version 2).');
    expect((await call('scratchpad_edit', { name: 'notes', content: 'fresh' })).text).toBe(
      'Overwrote "notes" (5 chars, 1 lines, 5 B, version 3).',
    );
    expect((await call('scratchpad_list', {})).text).toBe(
      '1 entry:\nnotes — 5 chars, 1 lines, written 0s ago, from scratchpad_write',
    );
    expect((await call('scratchpad_search', { query: 'fresh' })).text).toBe('1. notes — [fresh]');
    expect((await call('scratchpad_delete', { name: 'notes' })).text).toBe(
      'Deleted "notes" (5 chars, 1 lines, 5 B, version 3).',
    );
    expect((await call('scratchpad_list', {})).text).toBe('(no entries)');
  });

  it('scratchpad_list answers at most 200 entries by default and says exactly how to continue', async () => {
    const { call } = setup();
    for (let index = 0; index < 450; index++) {
      await call('scratchpad_write', { name: `e-${String(index).padStart(3, '0')}`, content: 'x' });
    }
    const cursorOf = (text: string): string =>
      JSON.parse(/call scratchpad_list with cursor: ("[^"]+") to continue\.$/.exec(text)?.[1] ?? 'null');
    const first = await call('scratchpad_list', {});
    expect(first.text.split('\n')).toHaveLength(202);
    expect(first.text.split('\n')[200]).toMatch(/^e-199 —/);
    const second = await call('scratchpad_list', { cursor: cursorOf(first.text) });
    expect(second.text).toMatch(/^200 entries \(continued\):\ne-200 —/);
    // Entries written and deleted between the calls: the continuation neither repeats nor skips the others.
    await call('scratchpad_write', { name: 'e-000a', content: 'x' });
    await call('scratchpad_delete', { name: 'e-401' });
    const last = await call('scratchpad_list', { cursor: cursorOf(second.text), limit: 1000 });
    expect(last.text.split('\n')).toHaveLength(50);
    expect(last.text.split('\n')[1]).toMatch(/^e-400 —/);
    expect(last.text).not.toContain('more entries follow');
    expect((await call('scratchpad_list', { limit: 1001 })).isError).toBe(true);
    const bad = await call('scratchpad_list', { cursor: 'e-199' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('Invalid list cursor');
  }, 60_000);

  it('parses line ranges', () => {
    expect(parseLines('3:7')).toEqual({ type: 'lines', start: 3, end: 7 });
    expect(parseLines('120:')).toEqual({ type: 'lines', start: 120 });
    expect(parseLines('-50:')).toEqual({ type: 'lines', start: -50 });
    expect(parseLines(':10')).toEqual({ type: 'lines', start: 1, end: 10 });
    expect(parseLines('42')).toEqual({ type: 'lines', start: 42, end: 42 });
  });
});
