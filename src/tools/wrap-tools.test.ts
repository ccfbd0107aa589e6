import { describe, expect, it } from 'vitest';
import { createScratchpad } from '../service/scratchpad.js';
import { createMemoryDriver } from '../stores/memory/index.js';
import { type HostTool, wrapTools } from './wrap-tools.js';

const log = Array.from({ length: 3000 }, (_, index) =>
  index === 2500 ? 'ERROR checkout_service refused' : `INFO request ${index}`,
).join('\n');

const tools: HostTool[] = [
  {
    name: 'execute_command',
    description: 'Run a shell command',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    execute: ({ command }) =>
      command === 'big' ? log : command === 'fail' ? Promise.reject(new Error('exit 2')) : 'ok',
  },
  {
    name: 'snapshot',
    inputSchema: { type: 'object', properties: {} },
    execute: () => Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]),
  },
];

function setup(policy = {}) {
  const session = createScratchpad({ driver: createMemoryDriver() }).session('s');
  const [command, snapshot] = wrapTools(tools, { session, policy }) as [
    ReturnType<typeof wrapTools>[0],
    ReturnType<typeof wrapTools>[0],
  ];
  return { session, command, snapshot };
}

describe('wrapTools', () => {
  it('adds the optional scratchpad parameter to every schema and keeps the rest', () => {
    const { command, snapshot } = setup();
    expect(command.inputSchema).toEqual({
      type: 'object',
      properties: {
        command: { type: 'string' },
        scratchpad: { type: 'string', description: expect.stringContaining('save the full result') },
      },
      required: ['command'],
    });
    expect(snapshot.inputSchema.properties).toHaveProperty('scratchpad');
  });

  it('keeps small results inline and offloads big ones under <tool>_<n>, never overwriting', async () => {
    const { command, session } = setup();
    expect(await command.execute({ command: 'small' })).toEqual({ text: 'ok', isError: false });
    const first = await command.execute({ command: 'big' }, { turn: 't1', step: 3 });
    expect(first.entry?.name).toBe('execute_command_1');
    expect(first.text.length).toBeLessThan(log.length / 2);
    const second = await command.execute({ command: 'big' });
    expect(second.entry?.name).toBe('execute_command_2');
    expect((await session.read('execute_command_1')).content).toBe(log);
    expect(await session.get('execute_command_1')).toMatchObject({
      turn: 't1',
      step: 3,
      source: 'execute_command',
    });
  });

  it('saves under the name the model gives, with a confirmation and a preview', async () => {
    const { command, session } = setup({ format: 'named' });
    const saved = await command.execute({ command: 'big', scratchpad: 'build-log' });
    expect(saved.entry?.name).toBe('build-log');
    expect(saved.text).toMatch(
      /^Saved the result of execute_command to the scratchpad as "build-log" \(52,902 chars, 3,000 lines; kept for this session \(no expiry\)\)\. Read it with scratchpad_read \{"name": "build-log"\}\.\nPreview:\nINFO request 0/,
    );
    expect((await session.read('build-log')).content).toBe(log);
    expect((await command.execute({ command: 'small', scratchpad: 'build-log' })).text).toContain(
      '"build-log" (2 chars, 1 lines; kept for this session (no expiry))',
    );
    expect((await command.execute({ command: 'small', scratchpad: '../etc' })).text).toContain(
      'INVALID_NAME',
    );
  });

  it('stores binary results as binary and reports tool failures as errors', async () => {
    const { snapshot, command, session } = setup();
    const result = await snapshot.execute({});
    expect(result.text).toContain('[BINARY: 8 bytes, sha256=');
    expect((await session.get(result.entry?.name ?? '')).kind).toBe('binary');
    expect(await command.execute({ command: 'fail' })).toEqual({
      isError: true,
      text: 'Error: execute_command failed: exit 2',
    });
  });

  it('refuses to wrap a tool that already has a scratchpad parameter', () => {
    const session = createScratchpad({ driver: createMemoryDriver() }).session('s');
    expect(() =>
      wrapTools(
        [
          {
            name: 'x',
            inputSchema: { type: 'object', properties: { scratchpad: { type: 'string' } } },
            execute: () => '',
          },
        ],
        { session },
      ),
    ).toThrow(/already has a "scratchpad" parameter/);
  });
});
