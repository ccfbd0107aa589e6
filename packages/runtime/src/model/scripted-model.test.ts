import { describe, expect, it } from 'vitest';
import { runtimeError } from '../runtime-errors.js';
import type { ModelMessage } from './language-model.js';
import { createScriptedModel } from './scripted-model.js';

describe('createScriptedModel', () => {
  it('replays text, tool calls and functions of the options, in order', async () => {
    const model = createScriptedModel([
      { toolCalls: [{ name: 'web_fetch', arguments: { url: 'https://httpbin.org/uuid' } }] },
      (options) => `You said ${options.messages.length} things.`,
      'bye',
    ]);
    const history: ModelMessage[] = [{ role: 'user', content: 'fetch' }];
    const first = await model.doGenerate({ messages: history });
    expect(first).toMatchObject({
      text: '',
      finishReason: 'tool-calls',
      toolCalls: [{ id: 'call_1_0', name: 'web_fetch', arguments: { url: 'https://httpbin.org/uuid' } }],
    });
    history.push({ role: 'assistant', content: '', toolCalls: first.toolCalls });
    history.push({ role: 'tool', toolCallId: 'call_1_0', toolName: 'web_fetch', content: '{"uuid":"7c08"}' });
    const second = await model.doGenerate({ messages: history });
    expect(second).toMatchObject({ text: 'You said 3 things.', toolCalls: [], finishReason: 'stop' });
    expect((await model.doGenerate({ messages: history })).text).toBe('bye');
    expect(model.remaining).toBe(0);
  });

  it('records a copy of the options of every call', async () => {
    const model = createScriptedModel(['a', 'b']);
    const history: ModelMessage[] = [{ role: 'user', content: 'one' }];
    await model.doGenerate({ system: 'sys', messages: history, think: false, tools: [] });
    history.push({ role: 'assistant', content: 'a' }, { role: 'user', content: 'two' });
    await model.doGenerate({ messages: history });
    expect(model.calls).toHaveLength(2);
    expect(model.calls[0]).toEqual({
      system: 'sys',
      messages: [{ role: 'user', content: 'one' }],
      think: false,
      tools: [],
    });
    expect(model.calls[1]?.messages).toHaveLength(3);
  });

  it('estimates usage unless the step gives it, and keeps the given finish reason', async () => {
    const model = createScriptedModel([
      'abcdefgh',
      { text: 'cut', finishReason: 'length', usage: { inputTokens: 1000, outputTokens: 4096 } },
    ]);
    expect((await model.doGenerate({ messages: [{ role: 'user', content: '12345678' }] })).usage).toEqual({
      inputTokens: 2,
      outputTokens: 2,
    });
    expect(await model.doGenerate({ messages: [] })).toMatchObject({
      finishReason: 'length',
      usage: { inputTokens: 1000, outputTokens: 4096 },
    });
  });

  it('throws a scripted failure, and a plain error when the script is used up', async () => {
    const unreachable = runtimeError(
      'PROVIDER_UNREACHABLE',
      'Cannot reach Ollama at http://127.0.0.1:11434.',
    );
    const model = createScriptedModel([{ throws: unreachable }], { provider: 'ollama', modelId: 'qwen3:8b' });
    expect([model.provider, model.modelId, model.specificationVersion]).toEqual(['ollama', 'qwen3:8b', 'v1']);
    await expect(model.doGenerate({ messages: [] })).rejects.toBe(unreachable);
    await expect(model.doGenerate({ messages: [] })).rejects.toThrow('no reply left for call 2');
  });

  it('rejects with the abort reason when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    const model = createScriptedModel(['never']);
    await expect(model.doGenerate({ messages: [], signal: controller.signal })).rejects.toThrow('stop');
    expect(model.calls[0]?.signal).toBe(controller.signal);
  });
});
