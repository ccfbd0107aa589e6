import { describe, expect, it } from 'vitest';
import { createScratchpad } from '../../../service/scratchpad.js';
import { createMemoryDriver } from '../../../stores/memory/index.js';
import { runTool, toolJsonSchema } from '../../tool.js';
import {
  ANTHROPIC_MEMORY_SYSTEM_PROMPT,
  anthropicMemoryToolDefinition,
  createAnthropicMemoryPreset,
} from './anthropic-memory-preset.js';
import { MemoryDirectory } from './memory-directory.js';

function setup() {
  const session = createScratchpad({ driver: createMemoryDriver() }).session('user-1');
  const preset = createAnthropicMemoryPreset();
  const tool = preset.tools[0]!;
  return { session, preset, tool, call: (input: unknown) => runTool(tool, input, { session }) };
}

describe('anthropic-memory preset', () => {
  it('offers one tool, `memory`, with the native Anthropic definition and a system prompt', () => {
    const { preset, tool } = setup();
    expect(preset.name).toBe('anthropic-memory');
    expect(preset.tools.map((item) => item.name)).toEqual(['memory']);
    expect(anthropicMemoryToolDefinition).toEqual({ type: 'memory_20250818', name: 'memory' });
    expect(tool.anthropicDefinition).toEqual(anthropicMemoryToolDefinition);
    expect(preset.systemPrompt).toBe(ANTHROPIC_MEMORY_SYSTEM_PROMPT);
    expect(ANTHROPIC_MEMORY_SYSTEM_PROMPT).toContain('/memories');
  });

  it('shows other providers a flat object schema with a command enum', () => {
    const schema = toolJsonSchema(setup().tool);
    expect(schema.type).toBe('object');
    expect(schema.required).toEqual(['command']);
    expect((schema.properties as Record<string, { enum?: string[] }>).command?.enum).toEqual([
      'view',
      'create',
      'str_replace',
      'insert',
      'delete',
      'rename',
    ]);
    expect(Object.keys(schema.properties as object).sort()).toEqual(
      [
        'command',
        'file_text',
        'insert_line',
        'insert_text',
        'new_path',
        'new_str',
        'old_path',
        'old_str',
        'path',
        'view_range',
      ].sort(),
    );
    for (const combinator of ['oneOf', 'anyOf', 'allOf']) expect(schema).not.toHaveProperty(combinator);
  });

  it('answers with the SDK texts and reports SDK errors as `Error: …` results', async () => {
    const { call } = setup();
    expect(
      await call({ command: 'create', path: '/memories/plan.md', file_text: '# Plan\n- step one\n' }),
    ).toEqual({
      text: 'File created successfully at: /memories/plan.md',
    });
    expect(
      await call({
        command: 'insert',
        path: '/memories/plan.md',
        insert_line: 2,
        insert_text: '- step two\n',
      }),
    ).toEqual({
      text: 'The file /memories/plan.md has been edited.',
    });
    expect(await call({ command: 'view', path: '/memories/plan.md' })).toEqual({
      text: "Here's the content of /memories/plan.md with line numbers:\n     1\t# Plan\n     2\t- step one\n     3\t- step two\n     4\t",
    });
    expect(await call({ command: 'create', path: '/memories/plan.md', file_text: 'again' })).toEqual({
      isError: true,
      text: 'Error: File /memories/plan.md already exists',
      data: {
        ok: false,
        error: 'ENTRY_EXISTS',
        message: 'File /memories/plan.md already exists',
        hint: 'Edit it with str_replace or insert, or delete it first.',
      },
    });
    expect(
      await call({ command: 'str_replace', path: '/memories/plan.md', old_str: 'step', new_str: 'x' }),
    ).toMatchObject({
      isError: true,
      text: 'Error: No replacement was performed. Multiple occurrences of old_str `step` in lines: 2, 3. Please ensure it is unique',
    });
    expect(
      await call({ command: 'rename', old_path: '/memories/plan.md', new_path: '/memories/done/plan.md' }),
    ).toEqual({
      text: 'Successfully renamed /memories/plan.md to /memories/done/plan.md',
    });
    expect(await call({ command: 'delete', path: '/memories/done' })).toEqual({
      text: 'Successfully deleted /memories/done',
    });
    expect(await call({ command: 'view', path: '/etc/passwd' })).toMatchObject({
      isError: true,
      text: 'Error: Path must start with /memories, got: /etc/passwd',
    });
  });

  it('validates input per command before running it', async () => {
    const { call, session } = setup();
    const missing = await call({ command: 'create', path: '/memories/a.md' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('file_text: required by the create command');
    expect((await call({ command: 'rename', old_path: '/memories/a' })).text).toContain(
      'new_path: required by the rename command',
    );
    expect((await call({ command: 'chmod', path: '/memories' })).text).toMatch(
      /^Invalid arguments for memory: command:/,
    );
    expect(
      (await call({ command: 'insert', path: '/memories/a', insert_line: 1.5, insert_text: 'x' })).isError,
    ).toBe(true);
    expect((await session.list()).entries).toEqual([]);
  });

  it('answers store-level conflicts in the library form, with a hint', async () => {
    const { call, session } = setup();
    await call({ command: 'create', path: '/memories/d/a.md', file_text: 'a' });
    const directory = new MemoryDirectory(session);
    // A pending transaction of another (live) writer holds /memories/d/a.md.
    const entry = await session.get(directory.layout.nodeName('/memories/d/a.md'));
    await session.write(directory.layout.journalName('00000000000000aa'), '', {
      metadata: directory.layout.journalMetadata({
        id: '00000000000000aa',
        state: 'pending',
        command: 'delete',
        startedAt: Date.now(),
        from: '/memories/d',
      }),
    });
    await session.update(entry.name, {
      metadata: directory.layout.nodeMetadata({
        path: '/memories/d/a.md',
        kind: 'file',
        transaction: '00000000000000aa',
        role: 'remove',
      }),
    });
    const output = await call({
      command: 'str_replace',
      path: '/memories/d/a.md',
      old_str: 'a',
      new_str: 'b',
    });
    expect(output.isError).toBe(true);
    expect(output.text).toBe(
      'Error (VERSION_CONFLICT): /memories/d/a.md is being moved or deleted by another command. Retry in a moment; view the directory to see the result of the other command.',
    );
    expect((await call({ command: 'view', path: '/memories/d/a.md' })).text).toContain('     1\ta');
  });
});
