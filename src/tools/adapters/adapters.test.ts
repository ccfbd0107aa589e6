import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScratchpad } from '../../service/scratchpad.js';
import { createMemoryDriver } from '../../stores/memory/index.js';
import { createDefaultPreset } from '../default/default-preset.js';
import { defineTool } from '../tool.js';
import { toAISDKTools } from './ai-sdk-tools.js';
import { runAnthropicToolUse, toAnthropicTools } from './anthropic-tools.js';
import { runOpenAIToolCall, toOpenAITools } from './openai-tools.js';

const dotted = defineTool({
  name: 'session.scratchpad',
  description: 'notes',
  parameters: z.object({ content: z.string() }),
  async execute({ content }) {
    return { text: `got ${content}` };
  },
});

function setup() {
  const session = createScratchpad({ driver: createMemoryDriver() }).session('s');
  const tools = [...createDefaultPreset().tools, dotted];
  return { session, tools, context: { session } };
}

describe('adapters', () => {
  it('OpenAI: function tools with valid names, calls round-trip, bad JSON and unknown tools explained', async () => {
    const { tools, context } = setup();
    const definitions = toOpenAITools(tools);
    expect(definitions[0]).toMatchObject({
      type: 'function',
      function: { name: 'scratchpad_write', parameters: { type: 'object' } },
    });
    expect(definitions.at(-1)?.function.name).toBe('session_scratchpad');
    for (const definition of definitions) expect(definition.function.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const written = await runOpenAIToolCall(
      tools,
      { id: 'c1', function: { name: 'scratchpad_write', arguments: '{"name":"a","content":"hi"}' } },
      context,
    );
    expect(written).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: 'Created "a" (2 chars, 1 lines, 2 B, version 1). It is kept for this session (no expiry).',
    });
    expect(
      (
        await runOpenAIToolCall(
          tools,
          { id: 'c2', function: { name: 'session_scratchpad', arguments: '{"content":"x"}' } },
          context,
        )
      ).content,
    ).toBe('got x');
    expect(
      (
        await runOpenAIToolCall(
          tools,
          { id: 'c3', function: { name: 'scratchpad_read', arguments: '{"name":' } },
          context,
        )
      ).content,
    ).toContain('not valid JSON');
    expect(
      (await runOpenAIToolCall(tools, { id: 'c4', function: { name: 'nope', arguments: '{}' } }, context))
        .content,
    ).toContain('There is no tool "nope"');
    expect(
      (
        await runOpenAIToolCall(
          tools,
          { id: 'c5', type: 'custom', custom: { name: 'scratchpad_read', input: 'a' } },
          context,
        )
      ).content,
    ).toMatch(/^Error \(INVALID_ARGUMENT\): "scratchpad_read" was called as a custom tool/);
  });

  it('Anthropic: custom tools, native definitions, is_error results', async () => {
    const { tools, context } = setup();
    const native = defineTool({
      ...dotted,
      name: 'memory',
      anthropicDefinition: { type: 'memory_20250818', name: 'memory' },
    });
    const definitions = toAnthropicTools([...tools, native]);
    expect(definitions[1]).toMatchObject({ name: 'scratchpad_read', input_schema: { type: 'object' } });
    expect(definitions.at(-1)).toEqual({ type: 'memory_20250818', name: 'memory' });
    const missing = await runAnthropicToolUse(
      tools,
      { id: 't1', name: 'scratchpad_read', input: { name: 'x' } },
      context,
    );
    expect(missing).toMatchObject({ type: 'tool_result', tool_use_id: 't1', is_error: true });
    const ok = await runAnthropicToolUse(
      tools,
      { id: 't2', name: 'scratchpad_write', input: { name: 'x', content: 'y' } },
      context,
    );
    expect(ok).toEqual({
      type: 'tool_result',
      tool_use_id: 't2',
      content: 'Created "x" (1 chars, 1 lines, 1 B, version 1). It is kept for this session (no expiry).',
    });
  });

  it('AI SDK: a tool set keyed by name whose execute returns what the model reads', async () => {
    const { tools, context } = setup();
    const set = toAISDKTools(tools, context);
    expect(Object.keys(set)).toContain('session_scratchpad');
    expect(await set.scratchpad_write?.execute({ name: 'n', content: 'v' })).toBe(
      'Created "n" (1 chars, 1 lines, 1 B, version 1). It is kept for this session (no expiry).',
    );
    expect(await set.scratchpad_read?.execute({ name: 'n' })).toBe('[n: chars 0–1 of 1; line 1 of 1]\nv');
    expect(set.scratchpad_read?.inputSchema).toBeInstanceOf(z.ZodObject);
  });
});
