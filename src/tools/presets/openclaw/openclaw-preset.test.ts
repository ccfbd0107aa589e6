import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessionTranscript } from '../../../context/notes/session-transcript.js';
import { createScratchpad } from '../../../service/scratchpad.js';
import { createMemoryDriver } from '../../../stores/memory/memory-driver.js';
import { runTool, toolJsonSchema } from '../../tool.js';
import { createOpenclawPreset } from './openclaw-preset.js';

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'openclaw-'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const session = () => createScratchpad({ driver: createMemoryDriver() }).session('s1');

describe('openclaw preset', () => {
  it("offers seed 001's tool with its exact name, description and parameters", () => {
    const preset = createOpenclawPreset();
    expect(preset.name).toBe('openclaw');
    expect(preset.tools).toHaveLength(1);
    const tool = preset.tools[0]!;
    expect(tool.name).toBe('session.scratchpad');
    expect(tool.description).toBe(
      'Persist important working state (plans, findings, decisions) that survives context compaction. Content is prepended to each message you receive.',
    );
    expect(JSON.stringify(toolJsonSchema(tool))).toBe(
      JSON.stringify({
        type: 'object',
        properties: {
          content: { type: 'string', description: 'The scratchpad content to save' },
          mode: {
            type: 'string',
            enum: ['replace', 'append'],
            default: 'replace',
            description: 'replace: overwrite entire scratchpad. append: add to existing content.',
          },
        },
        required: ['content'],
      }),
    );
  });

  it("appends seed 001's system-prompt guidance with the configured budget", () => {
    expect(createOpenclawPreset({ maxTokens: 500 }).systemPrompt).toBe(
      [
        '## Session Scratchpad',
        'You have a persistent scratchpad tool (session.scratchpad) that survives context compaction.',
        'Use it to save: multi-step plans, key findings, important decisions, accumulated state.',
        'The scratchpad is prepended to each message you receive. Budget: ~500 tokens.',
        'Call session.scratchpad with mode "replace" to overwrite, or "append" to add incrementally.',
      ].join('\n'),
    );
    expect(createOpenclawPreset().systemPrompt).toContain('Budget: ~2000 tokens.');
  });

  it('runs the tool: replace by default, append, rejection as an error result, invalid input', async () => {
    const preset = createOpenclawPreset({ maxTokens: 20 });
    const tool = preset.tools[0]!;
    const context = { session: session() };
    const updated = await runTool(tool, { content: '## Plan\n1. Fix X\n2. Test Y' }, context);
    expect(updated).toMatchObject({
      text: 'Scratchpad updated (12 tokens / 20 budget)',
      data: { ok: true, version: 1 },
    });
    expect(updated.isError).toBeUndefined();
    const rejected = await runTool(tool, { content: 'word '.repeat(10), mode: 'append' }, context);
    expect(rejected).toMatchObject({
      isError: true,
      text: "Append would exceed 20 token budget (current: 12, append: 11). Use mode 'replace' to rewrite, or reduce content.",
      data: { ok: false, error: 'BUDGET_EXCEEDED' },
    });
    const truncated = await runTool(tool, { content: 'word '.repeat(30), mode: 'replace' }, context);
    expect(truncated.text).toBe('Scratchpad truncated to 20 tokens (original: 31). Consider summarizing.');
    const invalid = await runTool(tool, { content: 'x', mode: 'prepend' }, context);
    expect(invalid.isError).toBe(true);
    expect(invalid.text).toMatch(/^Invalid arguments for session\.scratchpad: mode/);
  });

  it('shares one notes object per session between the tool and the injection', async () => {
    const preset = createOpenclawPreset();
    const pad = createScratchpad({ driver: createMemoryDriver() });
    expect(preset.notes(pad.session('s1'))).toBe(preset.notes(pad.session('s1')));
    expect(preset.notes(pad.session('s1'))).not.toBe(preset.notes(pad.session('s2')));
    await runTool(preset.tools[0]!, { content: 'plan' }, { session: pad.session('s1') });
    const first = await preset.inject(pad.session('s1'), 'next', { steer: 'Steer.' });
    expect(first).toBe(
      'Steer.\n\n[Session Scratchpad - your persistent working memory]\nplan\n[End Scratchpad]\n\nnext',
    );
    expect(await preset.inject(pad.session('s1'), 'next', { steer: 'Steer.' })).toBe(first);
    expect(await preset.inject(pad.session('s2'), 'next')).toBe('next');
  });

  it('surfaces a conflict to the model as an error result it can act on', async () => {
    const preset = createOpenclawPreset();
    const driver = createMemoryDriver();
    const mine = createScratchpad({ driver }).session('s1');
    await preset.inject(mine, 'hi');
    await createOpenclawPreset().notes(createScratchpad({ driver }).session('s1')).set('written by a person');
    const result = await runTool(preset.tools[0]!, { content: 'my plan' }, { session: mine });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('Error (VERSION_CONFLICT)');
    expect(result.text).toContain('Current content:\nwritten by a person');
    expect(
      (await runTool(preset.tools[0]!, { content: 'merged plan' }, { session: mine })).isError,
    ).toBeUndefined();
  });

  it('records to and restores from the session transcript', async () => {
    const transcript = (id: string) => createSessionTranscript({ path: join(directory, `${id}.jsonl`) });
    await runTool(
      createOpenclawPreset({ transcript }).tools[0]!,
      { content: 'survives restarts' },
      { session: session() },
    );
    const resumed = createOpenclawPreset({ transcript });
    const fresh = session();
    expect(await resumed.notes(fresh).restore()).toMatchObject({
      content: 'survives restarts',
      source: 'transcript',
    });
    expect(await resumed.inject(fresh, 'go')).toContain('survives restarts\n[End Scratchpad]\n\ngo');
  });

  it('has no tools, no guidance and no injection when disabled', async () => {
    const preset = createOpenclawPreset({ enabled: false });
    expect(preset.tools).toEqual([]);
    expect(preset.systemPrompt).toBe('');
    const pad = session();
    await preset.notes(pad).set('hidden');
    expect(await preset.inject(pad, 'hello')).toBe('hello');
    expect(await preset.inject(pad, 'hello', { steer: 'Steer.' })).toBe('Steer.\n\nhello');
  });

  it('rejects an invalid configuration', () => {
    expect(() => createOpenclawPreset({ maxTokens: -1 })).toThrow(/maxTokens/);
    expect(() => createOpenclawPreset({ enabled: 'yes' as unknown as boolean })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
  });
});
