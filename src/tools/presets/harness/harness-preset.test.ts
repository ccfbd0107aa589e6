import { describe, expect, it } from 'vitest';
import { createScratchpad } from '../../../service/scratchpad.js';
import { createMemoryDriver } from '../../../stores/memory/index.js';
import { runTool, type ScratchpadTool } from '../../tool.js';
import { createHarnessPreset } from './harness-preset.js';
import { pythonRepr } from './python-repr.js';

function setup() {
  const session = createScratchpad({ driver: createMemoryDriver() }).session('s');
  const preset = createHarnessPreset();
  const call = (name: string, input: unknown) =>
    runTool(preset.tools.find((tool) => tool.name === name) as ScratchpadTool, input, { session });
  return { session, call, preset };
}

describe('harness preset (seed 003)', () => {
  it('answers with the seed strings', async () => {
    const { call } = setup();
    expect(await call('scratchpad_list', {})).toEqual({ text: '(empty)' });
    expect(await call('scratchpad_write', { key: 'plan', content: 'héllo 🌍' })).toEqual({
      text: 'wrote 7 chars to scratchpad[plan]',
    });
    expect(await call('scratchpad_read', { key: 'plan' })).toEqual({ text: 'héllo 🌍' });
    const missing = await call('scratchpad_read', { key: 'nope' });
    expect(missing).toMatchObject({ isError: true, text: 'scratchpad[nope] not found' });
    await call('scratchpad_write', { key: 'findings-os', content: '' });
    await call('scratchpad_write', { key: 'Zeta', content: 'z' });
    expect((await call('scratchpad_list', {})).text).toBe('Zeta\nfindings-os\nplan');
  });

  it('rejects invalid keys exactly as the Python reference', async () => {
    const { call, session } = setup();
    const cases: Array<[string, string]> = [
      ['../../etc/evil', "invalid key '../../etc/evil': use [A-Za-z0-9_-]+"],
      ['a.b', "invalid key 'a.b': use [A-Za-z0-9_-]+"],
      ["it's", `invalid key "it's": use [A-Za-z0-9_-]+`],
      ['a\nb', "invalid key 'a\\nb': use [A-Za-z0-9_-]+"],
      ['sp ace', "invalid key 'sp ace': use [A-Za-z0-9_-]+"],
      ['', 'key cannot be empty'],
    ];
    for (const [key, message] of cases) {
      expect(await call('scratchpad_write', { key, content: 'x' })).toMatchObject({
        isError: true,
        text: message,
      });
      expect(await call('scratchpad_read', { key })).toMatchObject({ isError: true, text: message });
    }
    expect((await session.list()).entries).toEqual([]);
  });

  it('accepts Unicode letters and digits like str.isalnum, and lists them in code point order', async () => {
    const { call } = setup();
    expect((await call('scratchpad_write', { key: 'café', content: 'au lait' })).text).toBe(
      'wrote 7 chars to scratchpad[café]',
    );
    expect((await call('scratchpad_write', { key: '計画', content: 'plan' })).text).toBe(
      'wrote 4 chars to scratchpad[計画]',
    );
    await call('scratchpad_write', { key: 'x'.repeat(200), content: 'long key' });
    await call('scratchpad_write', { key: 'cafe', content: 'plain' });
    expect((await call('scratchpad_read', { key: 'café' })).text).toBe('au lait');
    expect((await call('scratchpad_read', { key: 'x'.repeat(200) })).text).toBe('long key');
    expect((await call('scratchpad_list', {})).text).toBe(
      ['cafe', 'café', 'x'.repeat(200), '計画'].join('\n'),
    );
  });

  it('reads entries written outside the harness (a human pre-populating the store)', async () => {
    const { call, session } = setup();
    await session.write('persistent-rules', 'use uv, never npm');
    await session.write('notes.md', 'not a valid harness key');
    expect((await call('scratchpad_read', { key: 'persistent-rules' })).text).toBe('use uv, never npm');
    expect((await call('scratchpad_list', {})).text).toBe('persistent-rules');
  });

  it('reproduces Python repr', () => {
    expect(pythonRepr('abc')).toBe("'abc'");
    expect(pythonRepr(`a'b"c`)).toBe(`'a\\'b"c'`);
    expect(pythonRepr('tab\there\\')).toBe("'tab\\there\\\\'");
    expect(pythonRepr('\u0000\u00a0\u200b😀')).toBe("'\\x00\\xa0\\u200b😀'");
  });
});
