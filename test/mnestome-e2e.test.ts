import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeScriptStep } from '../src/testing/fake-servers/index.js';
import { createRunHome, lastToolResult, type RunHome } from './helpers/run-home.js';

let home: RunHome;

beforeAll(() => {
  home = createRunHome('scratchpad-mnestome-');
  writeFileSync(join(home.workdir, 'notes.txt'), 'buy milk\n');
}, 120_000);
afterAll(() => home.close());

async function turn(query: string, script: FakeScriptStep[], env: Record<string, string> = {}) {
  const server = await home.ollama(script);
  const result = await home.cli(['--json', 'run', query, '--quiet'], { OLLAMA_HOST: server.url, ...env });
  return { ...result, record: JSON.parse(result.stdout) };
}

async function passages() {
  const result = await home.cli(['--json', 'mnestome', 'list']);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Array<Record<string, unknown>>;
}

/** The JSON observation of a failed call (Ollama shows tool errors as `Error: …`). */
function failedObservation(text: string) {
  return JSON.parse(text.slice(text.indexOf('{')));
}

const readNotes = { toolCalls: [{ name: 'fs_read', arguments: { path: 'notes.txt' } }] };

describe('the mnestome and compose through scratchpad run', () => {
  it('records a passage when a turn pipes one executor into another', async () => {
    const { record } = await turn('read notes.txt and save a copy as copy-a.txt', [
      readNotes,
      { toolCalls: [{ name: 'fs_write', arguments: { path: 'copy-a.txt', content: '{{step1.content}}' } }] },
      'Saved.',
    ]);
    expect(record.final_kind).toBe('answer');
    expect(record.steps[1].mnestome).toEqual({
      recorded: [{ src: 'fs_read', dst: 'fs_write', dst_exists: true, weight: 0.2, uses: 1 }],
    });
    const [passage] = await passages();
    expect(passage).toEqual({
      src: 'fs_read',
      dst: 'fs_write',
      weight: 0.2,
      uses: 1,
      last_used_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      dst_exists: true,
      desired_signature: null,
    });
  });

  it('a nonexistent executor after piping: a proto-mnest, and compose suggests the first hop (composed)', async () => {
    let observation = '';
    const { record } = await turn('read notes.txt and save a copy as copy-b.txt', [
      readNotes,
      { toolCalls: [{ name: 'save_copy', arguments: { path: 'copy-b.txt', content: '{{step1.content}}' } }] },
      (request) => {
        observation = lastToolResult(request);
        return 'There is a way, but I will stop here.';
      },
    ]);
    expect(failedObservation(observation)).toEqual({
      ok: false,
      error: expect.stringMatching(/^nonexistent executor: save_copy\. /),
      synt: {
        strategy: 'compose',
        state: 'composed',
        chain: ['fs_read', 'fs_write'],
        first_hop: 'fs_write',
        suggestion: "Retry by invoking 'fs_write' as the next step",
      },
    });
    // The planner never runs the first hop itself: the model chose not to, so nothing was written.
    expect(existsSync(join(home.workdir, 'copy-b.txt'))).toBe(false);
    expect(record.steps.map((step: { outcome: string }) => step.outcome)).toEqual([
      'executed',
      'unknown_tool',
    ]);
    const proto = (await passages()).find((passage) => passage.dst === 'save_copy');
    expect(proto).toMatchObject({
      src: 'fs_read',
      dst_exists: false,
      uses: 1,
      desired_signature: {
        name: 'save_copy',
        words: ['save', 'copy'],
        arg_keys: ['content', 'path'],
        inputs: [{ from: 'fs_read', field: 'content' }],
      },
    });
  });

  it('a nonexistent executor after piping that nothing can close: abandoned', async () => {
    let observation = '';
    await turn('read notes.txt and translate it to Klingon', [
      readNotes,
      { toolCalls: [{ name: 'translate_to_klingon', arguments: { text: '{{step1.content}}' } }] },
      (request) => {
        observation = lastToolResult(request);
        return 'I cannot translate to Klingon.';
      },
    ]);
    expect(failedObservation(observation).synt).toEqual({
      state: 'abandoned',
      suggestion: 'There is no executor available for this need, look for another way',
    });
  });

  it('without piping there is no mnest: a lone nonexistent call leaves the default observation', async () => {
    let observation = '';
    await turn('make coffee', [
      { toolCalls: [{ name: 'make_coffee', arguments: { strength: 'strong' } }] },
      (request) => {
        observation = lastToolResult(request);
        return 'No coffee.';
      },
    ]);
    expect(failedObservation(observation).synt).toBeUndefined();
    expect((await passages()).some((passage) => passage.dst === 'make_coffee')).toBe(false);
  });

  it('mnestome ager runs apply_ager now', async () => {
    const result = await home.cli(['--json', 'mnestome', 'ager']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ decayed: expect.any(Number), demoted: 0, purged: 0 });
    const human = await home.cli(['mnestome', 'list']);
    expect(human.stdout).toMatch(/^SRC {2,}DST {2,}WEIGHT {2,}USES {2,}LAST USED {2,}KIND\n/);
    expect(human.stdout).toContain('proto: wants save_copy(content, path)');
  });

  it('is fail-safe: a broken mnestome is logged on the step and the turn goes on', async () => {
    const data = join(home.root, 'broken-data');
    mkdirSync(join(data, 'scratchpad'), { recursive: true });
    writeFileSync(join(data, 'scratchpad', 'mnestome.db'), 'not a database '.repeat(200));
    const { record, code } = await turn(
      'read notes.txt and save a copy as copy-c.txt',
      [
        readNotes,
        {
          toolCalls: [{ name: 'fs_write', arguments: { path: 'copy-c.txt', content: '{{step1.content}}' } }],
        },
        'Saved.',
      ],
      { XDG_DATA_HOME: data },
    );
    expect(code).toBe(0);
    expect(record.final_kind).toBe('answer');
    expect(readFileSync(join(home.workdir, 'copy-c.txt'), 'utf8')).toBe('buy milk\n');
    expect(record.steps[1].mnestome.error).toMatch(/^Error \(STORE_UNAVAILABLE\): .*mnestome\.db/);
  });
});
