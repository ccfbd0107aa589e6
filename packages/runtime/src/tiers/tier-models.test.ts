import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScratchpadError } from 'llm-scratchpad';
import { parseRuntimeConfig } from '../config/parse-runtime-config.js';
import { createTierModels } from './tier-models.js';
import { loadTierPrompts, shippedTierPrompts } from './tier-prompts.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'scratchpad-tiers-'));
});
afterEach(() => rm(home, { recursive: true, force: true }));

const config = (text: string) => parseRuntimeConfig(text, join(home, 'config.toml'));

describe('tier prompts', () => {
  it('ships a distinct prompt per tier', () => {
    const prompts = shippedTierPrompts();
    expect(new Set(Object.values(prompts)).size).toBe(3);
    expect(prompts.fast).toMatch(/quick and direct/);
    expect(prompts.middle).toMatch(/careful and trustworthy/);
    expect(prompts.wise).toMatch(/thorough and reflective/);
  });

  it('reads prompt_file relative to the config file, and names a file it cannot read', async () => {
    await writeFile(join(home, 'judge.md'), 'Be a strict judge.\n');
    const prompts = await loadTierPrompts(
      config('[runtime.llm.middle]\nmodel = "gemma3:12b"\nprompt_file = "judge.md"\n'),
    );
    expect(prompts.middle).toBe('Be a strict judge.');
    expect(prompts.fast).toBe(shippedTierPrompts().fast);
    const error = await loadTierPrompts(
      config('[runtime.llm.wise]\nmodel = "x"\nprompt_file = "nope.md"\n'),
    ).catch((caught) => caught);
    expect(ScratchpadError.hasCode(error, 'CONFIG_INVALID')).toBe(true);
    expect(error.message).toContain(join(home, 'nope.md'));
  });
});

describe('createTierModels', () => {
  it('aliases down, keeps the asked tier’s prompt, and escalates only to another section', () => {
    const tiers = createTierModels(
      config('[runtime.llm.fast]\nmodel = "qwen3:8b"\n[runtime.llm.wise]\nmodel = "qwen3:32b"\n'),
      { prompts: shippedTierPrompts(), env: {} },
    );
    expect(tiers.get('middle')).toMatchObject({
      tier: 'middle',
      servedBy: 'fast',
      model: { modelId: 'qwen3:8b' },
      prompt: shippedTierPrompts().middle,
    });
    expect(tiers.get('wise').model.modelId).toBe('qwen3:32b');
    expect(tiers.above('fast')).toBe('wise');
    expect(tiers.above('middle')).toBe('wise');
    expect(tiers.above('wise')).toBeUndefined();
    const single = createTierModels(config(''), { prompts: shippedTierPrompts(), env: {} });
    expect(single.above('fast')).toBeUndefined();
  });

  it('applies --provider/--model to every tier the overridden section serves', () => {
    const tiers = createTierModels(config('[runtime.llm.wise]\nmodel = "qwen3:32b"\n'), {
      prompts: shippedTierPrompts(),
      env: {},
      overrides: { model: 'llama3.1:8b' },
      overriddenTier: 'fast',
    });
    expect(tiers.get('fast').model.modelId).toBe('llama3.1:8b');
    expect(tiers.get('middle').model.modelId).toBe('llama3.1:8b');
    expect(tiers.get('wise').model.modelId).toBe('qwen3:32b');
  });

  it('builds a tier only when asked: a broken wise section fails its own use', () => {
    const tiers = createTierModels(
      config('[runtime.llm.wise]\nprovider = "anthropic"\nmodel = "claude-sonnet-4-6"\n'),
      { prompts: shippedTierPrompts(), env: {} },
    );
    expect(tiers.get('fast').model.provider).toBe('ollama');
    expect(() => tiers.get('wise')).toThrow(/API key|ANTHROPIC_API_KEY/);
  });
});
