import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScratchpadError } from 'llm-scratchpad';
import { createScriptedModel, type ScriptedStep } from '../model/scripted-model.js';
import { runtimeError } from '../runtime-errors.js';
import { denialObservation } from './denial-observation.js';
import { createModelJudge, describeAction, JUDGEMENT_FORMAT, parseJudgement } from './model-judge.js';
import { createVaglio } from './vaglio.js';

let logDir: string;
beforeEach(() => {
  logDir = mkdtempSync(join(tmpdir(), 'scratchpad-model-judge-'));
});
afterEach(() => rmSync(logDir, { recursive: true, force: true }));

const read = {
  executor: 'fs_read',
  capabilities: ['fs:read'],
  args: { path: 'notes/secret-plans.md' },
  intent: 'read my notes',
};

function vaglioWith(steps: ScriptedStep[], setting: 'model' | 'both', maxJudgeCallsPerTurn = 10) {
  const model = createScriptedModel(steps, { provider: 'ollama', modelId: 'gemma3:12b' });
  const vaglio = createVaglio({
    logDir,
    now: () => new Date('2026-04-27T10:00:00Z'),
    env: {},
    home: '/home/alice',
    user: 'alice',
    cwd: '/home/alice',
    judge: setting,
    maxJudgeCallsPerTurn,
    modelJudge: createModelJudge({
      tier: () => ({ tier: 'middle', servedBy: 'middle', model, prompt: 'Be careful.' }),
    }),
  });
  return { model, vaglio };
}

function logged(): Array<Record<string, unknown>> {
  return readFileSync(join(logDir, '2026-04.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

describe('parseJudgement', () => {
  it('reads {score, reason}, also inside a code fence, and keeps the reason on one short line', () => {
    expect(parseJudgement('{"score": 0.834, "reason": "reads the notes"}')).toEqual({
      score: 0.83,
      reason: 'reads the notes',
    });
    expect(parseJudgement('```json\n{"score":0,"reason":"off\\ntopic"}\n```')).toEqual({
      score: 0,
      reason: 'off topic',
    });
    expect(parseJudgement(`{"score":1,"reason":"${'x'.repeat(500)}"}`).reason).toHaveLength(200);
  });

  it.each([
    ['not JSON', 'sure, looks fine'],
    ['a score out of range', '{"score": 7, "reason": "great"}'],
    ['a score as text', '{"score": "0.9", "reason": "great"}'],
    ['no reason', '{"score": 0.9}'],
    ['an array', '[0.9, "fine"]'],
  ])('refuses %s with PROVIDER_ERROR', (_name, text) => {
    const error = (() => {
      try {
        parseJudgement(text);
      } catch (caught) {
        return caught;
      }
    })();
    expect(ScratchpadError.hasCode(error, 'PROVIDER_ERROR')).toBe(true);
  });
});

describe('the model judge', () => {
  it('asks in a fresh context (the request and the action only) for structured output', async () => {
    const { model, vaglio } = vaglioWith(['{"score": 0.9, "reason": "reads what was asked"}'], 'model');
    const verdict = await vaglio.review(read);
    expect(verdict).toMatchObject({
      approved: true,
      score: 0.9,
      judge_kind: 'model',
      blocked_by: null,
      reason: 'judge (model): alignment 0.90 >= threshold 0.30',
      model_reason: 'reads what was asked',
      model_call: { purpose: 'judge', tier: 'middle', provider: 'ollama', modelId: 'gemma3:12b' },
    });
    const [call] = model.calls;
    expect(call?.messages).toEqual([{ role: 'user', content: describeAction(read) }]);
    expect(call?.system).toMatch(/^Be careful\.\n\nYou are the judge/);
    expect(call?.responseFormat).toEqual(JUDGEMENT_FORMAT);
    expect(call?.tools).toBeUndefined();
  });

  it('denies below the threshold, and the observation carries the judge’s words', async () => {
    const { vaglio } = vaglioWith(['{"score": 0.1, "reason": "the request is about notes"}'], 'model');
    const verdict = await vaglio.review(read);
    expect(verdict).toMatchObject({ approved: false, blocked_by: 'judge', judge_kind: 'model', score: 0.1 });
    expect(denialObservation(verdict, 'fs_read').error).toContain(
      'The judge said: the request is about notes',
    );
  });

  it('both: the lower of the rule score and the model score', async () => {
    const { vaglio } = vaglioWith(['{"score": 0.95, "reason": "fine"}'], 'both');
    const verdict = await vaglio.review({ ...read, args: { path: '../other/notes.md' } });
    expect(verdict).toMatchObject({ score: 0.45, judge_kind: 'both', approved: true });
    expect(verdict.reason).toBe('judge (both): alignment 0.45 >= threshold 0.30: rules 0.45, model 0.95');
  });

  it('falls back to the rule judge when the model fails or answers nonsense, and says so', async () => {
    const down = runtimeError('PROVIDER_UNREACHABLE', 'Cannot reach Ollama at http://127.0.0.1:9.');
    const { vaglio } = vaglioWith([{ throws: down }, 'I think it is fine'], 'model');
    const unreachable = await vaglio.review(read);
    expect(unreachable).toMatchObject({ approved: true, score: 0.7, judge_kind: 'rules-fallback' });
    expect(unreachable.reason).toBe(
      'judge: alignment 0.70 >= threshold 0.30; rules-fallback: the model judge failed (PROVIDER_UNREACHABLE)',
    );
    expect(unreachable.model_call).toMatchObject({ purpose: 'judge', error: expect.any(String) });
    const nonsense = await vaglio.review(read);
    expect(nonsense.reason).toContain('rules-fallback: the model judge failed (PROVIDER_ERROR)');
  });

  it('stops asking the model when the turn’s budget is used up', async () => {
    const { model, vaglio } = vaglioWith(
      ['{"score":0.9,"reason":"ok"}', '{"score":0.9,"reason":"ok"}'],
      'model',
      1,
    );
    const budget = vaglio.turnBudget();
    expect((await vaglio.review(read, budget)).judge_kind).toBe('model');
    const second = await vaglio.review(read, budget);
    expect(second.judge_kind).toBe('rules-fallback');
    expect(second.reason).toContain("the turn's budget of 1 model judge calls is used up");
    expect(model.calls).toHaveLength(1);
  });

  it('the guard still goes first: no model call for a protected path', async () => {
    const { model, vaglio } = vaglioWith([], 'model');
    const verdict = await vaglio.review({ ...read, args: { path: '/etc/shadow' } });
    expect(verdict).toMatchObject({ blocked_by: 'guard', score: null });
    expect(model.calls).toHaveLength(0);
  });

  it('keeps argument values and the model’s words out of the vaglio log', async () => {
    const { vaglio } = vaglioWith(['{"score": 0.2, "reason": "secret-plans.md is private"}'], 'model');
    await vaglio.review(read);
    const [line] = logged();
    expect(line).toMatchObject({ judge_kind: 'model', arg_keys: ['path'], approved: false });
    expect(JSON.stringify(line)).not.toContain('secret-plans');
  });

  it('refuses model or both without a model judge', () => {
    expect(() => createVaglio({ logDir: false, env: {}, judge: 'model' })).toThrow(/needs a model judge/);
  });
});
