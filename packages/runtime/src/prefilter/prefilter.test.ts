import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScratchpadError } from 'llm-scratchpad';
import { shippedExecutorsDir } from '../executors/shipped-executors.js';
import { chooseK } from './adaptive-k.js';
import { createPrefilter, type PrefilterEntry } from './prefilter.js';

const shipped: PrefilterEntry[] = readdirSync(shippedExecutorsDir()).map(
  (name) =>
    JSON.parse(readFileSync(join(shippedExecutorsDir(), name, 'manifest.json'), 'utf8')) as PrefilterEntry,
);

function entry(name: string, affinity: string[] = [], description = `The ${name} tool.`): PrefilterEntry {
  return { name, affinity, description };
}

describe('createPrefilter on the shipped executors', () => {
  const prefilter = createPrefilter(shipped);

  it('ranks web_fetch first with high confidence for the seed example', () => {
    const selection = prefilter.select('fetch https://httpbin.org/get');
    expect(selection.candidates[0]?.executor.name).toBe('web_fetch');
    expect(selection.reason).toBe('clear-winner');
    expect(selection.confidence).toBeGreaterThanOrEqual(0.5);
    expect(selection.k).toBe(5);
  });

  it('picks the right executor for everyday requests, in English and Italian with or without accents', () => {
    const top = (query: string) => prefilter.rank(query)[0]?.executor.name;
    expect(top('read the file ~/notes/diary.md and tell me the last three lines')).toBe('fs_read');
    expect(top('leggi il file ~/notes/diary.md e dimmi le ultime tre righe')).toBe('fs_read');
    expect(top('save this text to /tmp/out.txt')).toBe('fs_write');
    expect(top('elenca la cartella /tmp')).toBe('fs_list');
    expect(top('run git status in the repo')).toBe('shell_exec');
    expect(top('scarica la pagina https://example.com')).toBe('web_fetch');
    expect(top('ESEGUÌ IL COMANDO ls')).toBe('shell_exec');
  });
});

describe('createPrefilter scoring', () => {
  it('counts an affinity match double a description match, once per distinct query word', () => {
    const prefilter = createPrefilter([
      entry('alpha_tool', ['zebra']),
      entry('beta_tool', [], 'Works with zebra stripes.'),
      entry('gamma_tool'),
    ]);
    const scores = Object.fromEntries(
      prefilter.rank('zebra zebra ZEBRA').map((item) => [item.executor.name, item.score]),
    );
    expect(scores).toEqual({ alpha_tool: 2, beta_tool: 1, gamma_tool: 0 });
  });

  it('matches name words as affinity words and folds accents on both sides', () => {
    const prefilter = createPrefilter([entry('citta_meteo', ['previsioni']), entry('other', ['città'])]);
    expect(prefilter.rank('Città')[0]).toMatchObject({ executor: { name: 'citta_meteo' }, score: 2 });
    expect(prefilter.rank('citta').map((item) => item.score)).toEqual([2, 2]);
    expect(prefilter.rank('PREVISIONI')[0]?.executor.name).toBe('citta_meteo');
  });

  it('breaks ties by name and limits the ranking', () => {
    const prefilter = createPrefilter([entry('zulu', ['x1']), entry('alpha', ['x1']), entry('mike')]);
    expect(prefilter.rank('x1').map((item) => item.executor.name)).toEqual(['alpha', 'zulu', 'mike']);
    expect(prefilter.rank('x1', 1).map((item) => item.executor.name)).toEqual(['alpha']);
  });

  it('rejects impossible K bounds', () => {
    expect(() => createPrefilter([], { kMin: 10, kMax: 5 })).toThrow(ScratchpadError);
  });
});

describe('adaptive K', () => {
  const catalog = Array.from({ length: 100 }, (_, index) =>
    entry(`tool_${String(index).padStart(3, '0')}`, [`word${index}`]),
  );

  it('passes k_min when one candidate clearly wins, padding with zero-score candidates only up to k_min', () => {
    const selection = createPrefilter(catalog).select('word7');
    expect(selection).toMatchObject({ k: 5, reason: 'clear-winner', confidence: 1 });
    expect(selection.candidates.map((item) => item.score)).toEqual([2, 0, 0, 0, 0]);
  });

  it('passes k_min zero-score candidates when nothing matches', () => {
    expect(createPrefilter(catalog).select('nothing matches here')).toMatchObject({
      k: 5,
      reason: 'no-match',
    });
  });

  it('grows to k_max when the scores are flat, but never pads zero-score candidates beyond k_min', () => {
    const shared = catalog.map((item, index) => ({ ...item, affinity: index < 60 ? ['common'] : [] }));
    const flat = createPrefilter(shared).select('common');
    expect(flat).toMatchObject({ k: 40, reason: 'flat', confidence: 0 });
    expect(flat.candidates.every((item) => item.score === 2)).toBe(true);

    const few = catalog.map((item, index) => ({ ...item, affinity: index < 12 ? ['common'] : [] }));
    const capped = createPrefilter(few).select('common');
    expect(capped).toMatchObject({ k: 12, reason: 'flat' });
    expect(capped.candidates.every((item) => item.score > 0)).toBe(true);
  });

  it('interpolates between k_min and k_max as confidence falls', () => {
    expect(chooseK([4, 2, 2, 2], 100)).toEqual({ k: 5, reason: 'clear-winner', confidence: 0.5 });
    expect(chooseK([3, 2, ...Array(50).fill(1)], 100)).toMatchObject({ k: 17, reason: 'ambiguous' });
    expect(chooseK([5, 4, ...Array(50).fill(1)], 100)).toMatchObject({ k: 26, reason: 'ambiguous' });
    expect(chooseK([2, 2, ...Array(50).fill(1)], 100)).toMatchObject({ k: 40, reason: 'flat' });
  });

  it('never exceeds the catalog and handles an empty one', () => {
    expect(chooseK([1, 1, 1], 3)).toMatchObject({ k: 3, reason: 'flat' });
    expect(chooseK([], 0)).toEqual({ k: 0, reason: 'empty-catalog', confidence: 0 });
    expect(createPrefilter([]).select('anything')).toMatchObject({ k: 0, candidates: [] });
    expect(createPrefilter([entry('only')]).select('unrelated')).toMatchObject({ k: 1, reason: 'no-match' });
  });

  it('honours custom bounds', () => {
    expect(chooseK([1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 10, { kMin: 2, kMax: 8 })).toMatchObject({ k: 8 });
    expect(chooseK([9], 10, { kMin: 2, kMax: 8 })).toMatchObject({ k: 2 });
  });
});
