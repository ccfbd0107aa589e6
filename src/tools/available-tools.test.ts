import { describe, expect, it } from 'vitest';
import { createScratchpad } from '../service/scratchpad.js';
import { createMemoryDriver } from '../stores/memory/index.js';
import { availableTools } from './available-tools.js';
import { createDefaultPreset } from './default/default-preset.js';
import { createMetnosPreset } from './presets/metnos/metnos-preset.js';

describe('availableTools', () => {
  it('offers the read tool only once there is an entry (of the turn, when given)', async () => {
    const session = createScratchpad({ driver: createMemoryDriver() }).session('s');
    const metnos = createMetnosPreset().tools;
    expect(await availableTools(metnos, { session, turn: 't1' })).toEqual([]);
    await session.write('fs_read_1', 'x'.repeat(5000), { turn: 't0' });
    expect(await availableTools(metnos, { session, turn: 't1' })).toEqual([]);
    expect((await availableTools(metnos, { session })).map((tool) => tool.name)).toEqual(['scratchpad_read']);
    await session.write('fs_read_2', 'y'.repeat(5000), { turn: 't1' });
    expect((await availableTools(metnos, { session, turn: 't1' })).map((tool) => tool.name)).toEqual([
      'scratchpad_read',
    ]);
  });

  it('leaves tool sets without a read tool alone, and keeps the rest of a set', async () => {
    const session = createScratchpad({ driver: createMemoryDriver() }).session('s');
    const names = (await availableTools(createDefaultPreset().tools, { session })).map((tool) => tool.name);
    expect(names).toEqual([
      'scratchpad_write',
      'scratchpad_edit',
      'scratchpad_list',
      'scratchpad_delete',
      'scratchpad_search',
    ]);
  });
});
