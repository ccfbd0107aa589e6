import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../model/scripted-model.js';
import { lazyLanguageModel } from './lazy-model.js';

const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };

describe('lazyLanguageModel', () => {
  it('loads the model on the first request only, and knows its identity before', async () => {
    let loads = 0;
    const model = lazyLanguageModel({ provider: 'ollama', modelId: 'qwen3:8b' }, async () => {
      loads += 1;
      return createScriptedModel(['one', 'two']);
    });
    expect([model.provider, model.modelId, loads]).toEqual(['ollama', 'qwen3:8b', 0]);
    const replies = await Promise.all([model.doGenerate(ask), model.doGenerate(ask)]);
    expect(replies.map((reply) => reply.text).sort()).toEqual(['one', 'two']);
    expect(loads).toBe(1);
  });

  it('loads again after a failed load', async () => {
    let loads = 0;
    const model = lazyLanguageModel({ provider: 'openai', modelId: 'm' }, async () => {
      loads += 1;
      if (loads === 1) throw new Error('module not found');
      return createScriptedModel(['after retry']);
    });
    await expect(model.doGenerate(ask)).rejects.toThrow('module not found');
    expect((await model.doGenerate(ask)).text).toBe('after retry');
    expect(loads).toBe(2);
  });
});
