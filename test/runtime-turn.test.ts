import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { createScratchpad } from 'llm-scratchpad';
import { createMemoryDriver } from 'llm-scratchpad/memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel, type ScriptedStep } from '../packages/runtime/src/model/scripted-model.js';
import { runTurn } from '../packages/runtime/src/planner/run-turn.js';
import { createVaglio } from '../packages/runtime/src/vaglio/vaglio.js';
import { buildCatalog } from './helpers/test-executors.js';

let catalog: Awaited<ReturnType<typeof buildCatalog>>;
let server: Server;
let url: string;
const body = JSON.stringify({
  args: {},
  headers: { host: 'httpbin' },
  data: 'x'.repeat(14_000),
  url: 'https://httpbin.org/get',
});

beforeAll(async () => {
  catalog = await buildCatalog(
    [
      {
        name: 'echo_args',
        description: 'Echo the arguments back',
        affinity: ['echo'],
        code: 'console.log(JSON.stringify({ ok: true, content: JSON.stringify(args) }));',
      },
      {
        name: 'crasher',
        description: 'An executor that crashes',
        affinity: ['crash'],
        code: 'console.error("boom: the disk exploded"); throw new Error("kaboom");',
      },
      {
        name: 'chatty',
        description: 'An executor that prints text instead of JSON',
        affinity: ['chatty'],
        code: 'console.log("hello, I am not JSON");',
      },
      {
        name: 'tampered',
        description: 'An executor modified after signing',
        affinity: ['tampered'],
        code: 'console.log(JSON.stringify({ ok: true }));',
      },
    ],
    { tamper: ['tampered'] },
  );
  server = createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(body),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/get`;
}, 120_000);
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(catalog.home, { recursive: true, force: true });
});

function turn(steps: ScriptedStep[], query: string, extra: Partial<Parameters<typeof runTurn>[0]> = {}) {
  const model = createScriptedModel(steps);
  const scratchpad = createScratchpad({ driver: createMemoryDriver() });
  const run = runTurn({
    query,
    model,
    executors: catalog.executors,
    discarded: catalog.discarded,
    scratchpad,
    vaglio: createVaglio({ logDir: false, env: {} }),
    turnLogDir: false,
    executorOptions: { cwd: catalog.home, localNetwork: ['web_fetch'] },
    ...extra,
  });
  return { model, scratchpad, run };
}

function lastToolMessage(options: { messages: Array<{ role: string; content: string }> }): string {
  return options.messages.filter((message) => message.role === 'tool').at(-1)?.content ?? '';
}

describe('runTurn (seed 002 planner)', () => {
  it('discards the executor modified after signing, with its reason', () => {
    expect(catalog.executors.map((executor) => executor.name)).not.toContain('tampered');
    expect(catalog.discarded).toEqual([
      expect.objectContaining({ reason: expect.stringMatching(/digest|changed/i) }),
    ]);
  });

  it('pipes {{step1.content}} from the full stored result, not the preview (seed 000 §5)', async () => {
    const out = join(catalog.home, 'out.txt');
    const { run, model } = turn(
      [
        { toolCalls: [{ name: 'web_fetch', arguments: { url } }] },
        (options) => {
          expect(lastToolMessage(options)).toContain('scratchpad_read');
          expect(lastToolMessage(options).length).toBeLessThan(body.length);
          return {
            toolCalls: [{ name: 'fs_write', arguments: { path: out, content: '{{step1.content}}' } }],
          };
        },
        'Saved.',
      ],
      `download ${url} and save it in ${out}`,
    );
    const result = await run;
    expect(result.finalKind).toBe('answer');
    expect(readFileSync(out, 'utf8')).toBe(body);
    expect(result.steps[1]).toMatchObject({
      tool: 'fs_write',
      references: ['step1.content'],
      outcome: 'executed',
    });
    expect(model.remaining).toBe(0);
  });

  it('offers scratchpad_read only once the turn has stored entries (seed 000 §7)', async () => {
    const { run, model } = turn(
      [{ toolCalls: [{ name: 'web_fetch', arguments: { url } }] }, 'done'],
      `fetch ${url}`,
    );
    await run;
    const names = model.calls.map((call) => (call.tools ?? []).map((tool) => tool.name));
    expect(names[0]).not.toContain('scratchpad_read');
    expect(names[1]).toContain('scratchpad_read');
  });

  it('guards duplicate reads and lets scratchpad_read repeat', async () => {
    const file = join(catalog.home, 'notes.txt');
    writeFileSync(file, 'short file');
    const { run } = turn(
      [
        { toolCalls: [{ name: 'fs_read', arguments: { path: file } }] },
        (_options) => {
          return { toolCalls: [{ name: 'fs_read', arguments: { path: file } }] };
        },
        (options) => {
          expect(lastToolMessage(options)).toContain('You already have this data at step 1');
          return 'It says: short file';
        },
      ],
      `read ${file}`,
    );
    const result = await run;
    expect(result.finalKind).toBe('answer');
    expect(result.steps.map((step) => step.outcome)).toEqual(['executed', 'duplicate_read']);
  });

  it('masks older results behind stubs (compactMessages default) and offers scratchpad_read to read them back', async () => {
    const files = ['first', 'second'].map((label) => {
      const file = join(catalog.home, `${label}.log`);
      writeFileSync(file, `${label} line of the log, nothing wrong here\n`.repeat(70));
      return file;
    });
    const { run, model, scratchpad } = turn(
      [
        { toolCalls: [{ name: 'fs_read', arguments: { path: files[0] } }] },
        { toolCalls: [{ name: 'fs_read', arguments: { path: files[1] } }] },
        { toolCalls: [{ name: 'echo_args', arguments: { n: 1 } }] },
        'Both logs look fine.',
      ],
      'read both logs',
    );
    const result = await run;
    expect(result.finalKind).toBe('answer');
    const last = model.calls.at(-1) as unknown as { messages: Array<{ role: string; content: string }> };
    const tools = last.messages
      .filter((message) => message.role === 'tool')
      .map((message) => message.content);
    expect(tools[0]).toMatch(/^\[Masked tool result: fs_read output stored whole as /);
    expect(tools[1]).toMatch(/^\[Masked tool result: fs_read output stored whole as /);
    expect(tools[2]).not.toMatch(/^\[Masked/);
    expect((model.calls.at(-1)?.tools ?? []).map((tool) => tool.name)).toContain('scratchpad_read');
    const name = /stored whole as (\S+) /.exec(tools[0] as string)?.[1] as string;
    const first = model.calls[1] as unknown as { messages: Array<{ role: string; content: string }> };
    const original = first.messages.filter((message) => message.role === 'tool')[0]?.content;
    const stored = await scratchpad.session('default').read(name, { type: 'full' });
    expect(stored.content).toBe(original);
  });

  it('ends with cap_same_executor on the third call of one executor', async () => {
    const { run } = turn(
      [
        { toolCalls: [{ name: 'fs_list', arguments: { path: catalog.home } }] },
        { toolCalls: [{ name: 'fs_list', arguments: { path: join(catalog.home, 'data') } }] },
        { toolCalls: [{ name: 'fs_list', arguments: { path: join(catalog.home, 'config') } }] },
      ],
      'list the files in my folders',
    );
    const result = await run;
    expect(result.finalKind).toBe('cap_same_executor');
    expect(result.finalMessage).toContain('the limit of 2 calls of fs_list');
    expect(result.steps).toHaveLength(2);
  });

  it('ends with cap_steps after 5 steps', async () => {
    const calls = [
      { name: 'echo_args', arguments: { n: 1 } },
      { name: 'fs_list', arguments: { path: catalog.home } },
      { name: 'echo_args', arguments: { n: 2 } },
      { name: 'fs_list', arguments: { path: join(catalog.home, 'data') } },
      { name: 'web_fetch', arguments: { url } },
      { name: 'web_fetch', arguments: { url: `${url}?again` } },
    ];
    const { run } = turn(
      calls.map((call) => ({ toolCalls: [call] })),
      'echo, list files, fetch a web page',
    );
    const result = await run;
    expect(result.finalKind).toBe('cap_steps');
    expect(result.steps).toHaveLength(5);
    expect(result.finalMessage).toContain('the step limit (5)');
  });

  it('the vaglio denies sensitive paths and destructive commands; the model reads why', async () => {
    const { run } = turn(
      [
        { toolCalls: [{ name: 'fs_read', arguments: { path: '/etc/shadow' } }] },
        (options) => {
          expect(lastToolMessage(options)).toContain('refused by the vaglio (guard');
          return {
            toolCalls: [{ name: 'shell_exec', arguments: { command: 'rm  -fr  / --no-preserve-root' } }],
          };
        },
        (options) => {
          expect(lastToolMessage(options)).toContain('refused by the vaglio (guard');
          return 'I cannot do that.';
        },
      ],
      'read /etc/shadow and then clean up the disk with a shell command',
    );
    const result = await run;
    expect(result.finalKind).toBe('answer');
    expect(result.steps.map((step) => [step.outcome, step.vaglio?.blocked_by])).toEqual([
      ['denied', 'guard'],
      ['denied', 'guard'],
    ]);
  });

  it('turns executor failures into observations: crash, non-JSON output', async () => {
    const { run } = turn(
      [
        { toolCalls: [{ name: 'crasher', arguments: {} }] },
        (options) => {
          const text = lastToolMessage(options);
          expect(text).toContain('"ok":false');
          expect(text).toContain('boom: the disk exploded');
          return { toolCalls: [{ name: 'chatty', arguments: {} }] };
        },
        (options) => {
          expect(lastToolMessage(options)).toContain('non-JSON output');
          return 'Both tools failed.';
        },
      ],
      'crash then chatty',
    );
    expect((await run).finalKind).toBe('answer');
  });

  it('explains unknown tools, invalid arguments and unresolvable references', async () => {
    const { run } = turn(
      [
        { toolCalls: [{ name: 'tampered', arguments: {} }] },
        (options) => {
          expect(lastToolMessage(options)).toContain('nonexistent executor: tampered');
          return { toolCalls: [{ name: 'fs_read', arguments: { paht: '/tmp/x' } }] };
        },
        (options) => {
          expect(lastToolMessage(options)).toMatch(/Invalid arguments for fs_read: .*path/);
          return { toolCalls: [{ name: 'echo_args', arguments: { text: '{{step1.content}}' } }] };
        },
        (options) => {
          expect(lastToolMessage(options)).toContain('Cannot resolve {{step1.content}}');
          return 'giving up';
        },
      ],
      'use the tampered tool',
    );
    const result = await run;
    expect(result.steps.map((step) => step.outcome)).toEqual([
      'unknown_tool',
      'invalid_arguments',
      'reference_error',
    ]);
  });

  it('an empty catalog ends the turn cleanly with final_kind error', async () => {
    const { run } = turn([], 'anything', {
      executors: [],
      discarded: [{ dir: '/x/evil', reason: 'code digest mismatch' }],
    });
    const result = await run;
    expect(result).toMatchObject({ finalKind: 'error' });
    expect(result.finalMessage).toContain('(empty catalog)');
    expect(result.finalMessage).toContain('code digest mismatch');
  });

  it('a provider failure mid-turn ends with final_kind error and a structured record', async () => {
    const { runtimeError } = await import('../packages/runtime/src/runtime-errors.js');
    const { run } = turn(
      [
        {
          throws: runtimeError(
            'PROVIDER_UNREACHABLE',
            'Cannot reach ollama at http://127.0.0.1:9 (connection refused).',
            { hint: 'Set OLLAMA_HOST.' },
          ),
        },
      ],
      'hello',
    );
    const result = await run;
    expect(result.finalKind).toBe('error');
    expect(result.finalMessage).toBe(
      'Error (PROVIDER_UNREACHABLE): Cannot reach ollama at http://127.0.0.1:9 (connection refused). Set OLLAMA_HOST.',
    );
  });

  it('default style: a scratchpad_read answer is cut at 32 KiB and names the call that continues', async () => {
    const big = join(catalog.home, 'long_log.txt');
    writeFileSync(
      big,
      Array.from({ length: 20_000 }, (_, index) => `INFO 2026-04-26 10:00:01 event ${index + 1}\n`).join(''),
    );
    let answer = '';
    const { run, scratchpad } = turn(
      [
        { toolCalls: [{ name: 'fs_read', arguments: { path: big } }] },
        async () => {
          const [entry] = (await scratchpad.session('default').list()).entries;
          return {
            toolCalls: [{ name: 'scratchpad_read', arguments: { id: entry?.id, lines: '1:20000' } }],
          };
        },
        (options) => {
          answer = lastToolMessage(options);
          return 'Read the first part.';
        },
      ],
      `read ${big}`,
    );
    await run;
    expect(Buffer.byteLength(answer)).toBeLessThanOrEqual(32 * 1024);
    expect(answer).toContain('event 1\n');
    expect(answer).toMatch(/"lines":"\d+:20000"/);
  });

  it('metnos style: the seed 000 synthetic observation and scratchpad_read by id', async () => {
    const big = join(catalog.home, 'big_log.txt');
    writeFileSync(
      big,
      `${'INFO 2026-04-26 10:00:01 event\n'.repeat(3000)}ERROR 2026-04-26 23:59:59 LAST_CRITICAL_EVENT\n`,
    );
    let id = '';
    const { run } = turn(
      [
        { toolCalls: [{ name: 'fs_read', arguments: { path: big } }] },
        (options) => {
          const observation = JSON.parse(lastToolMessage(options));
          expect(Object.keys(observation)).toEqual([
            'ok',
            'scratchpad_id',
            'size_bytes',
            'kind',
            'summary',
            'metadata',
            '_note',
          ]);
          expect(observation._note).toBe(
            'Large observation saved in scratchpad. To read it in full or partially, use the scratchpad_read tool.',
          );
          expect(observation.summary).toMatch(/\[\.\.\. \d+ characters omitted \.\.\.\]/);
          id = observation.scratchpad_id;
          return {
            toolCalls: [{ name: 'scratchpad_read', arguments: { scratchpad_id: id, mode: 'tail', n: 60 } }],
          };
        },
        (options) => {
          expect(JSON.parse(lastToolMessage(options)).content).toContain('LAST_CRITICAL_EVENT');
          return 'The last event is LAST_CRITICAL_EVENT.';
        },
      ],
      `read ${big} and tell me the errors`,
      { scratchpadStyle: 'metnos' },
    );
    const result = await run;
    expect(result.finalKind).toBe('answer');
    expect(id).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('the turn log and the lifetime of offloaded entries', () => {
  it('names the turn log after the UTC day of the turn (a known clock), not 1970-01-21', async () => {
    const { mkdtempSync, readdirSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const directory = mkdtempSync(join(tmpdir(), 'scratchpad-turnlog-'));
    try {
      const clock = Date.UTC(2026, 3, 26, 23, 59, 58);
      const { run } = turn(['Hello.'], 'say hello', { turnLogDir: directory, now: () => clock });
      const result = await run;
      expect(result.logFile).toBe(join(directory, '2026-04-26.jsonl'));
      expect(readdirSync(directory)).toEqual(['2026-04-26.jsonl']);
      expect(result.record.ts_start).toBe(clock / 1000);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('gives offloaded entries seed 000’s hour and removes them at the start of a later turn', async () => {
    let clock = Date.UTC(2026, 3, 26, 10, 0, 0);
    const scratchpad = createScratchpad({ driver: createMemoryDriver(), now: () => clock });
    const common = {
      executors: catalog.executors,
      scratchpad,
      vaglio: createVaglio({ logDir: false, env: {} }),
      turnLogDir: false as const,
      executorOptions: { cwd: catalog.home, localNetwork: ['web_fetch'] },
      now: () => clock,
    };
    await runTurn({
      ...common,
      query: `fetch ${url}`,
      model: createScriptedModel([{ toolCalls: [{ name: 'web_fetch', arguments: { url } }] }, 'done']),
    });
    const [entry] = (await scratchpad.list('default')).entries;
    expect(entry?.expiresAt).toBe(clock + 3_600_000);
    clock += 3_600_000 + 1000;
    await runTurn({ ...common, query: 'hello', model: createScriptedModel(['hi']) });
    expect((await scratchpad.list('default')).entries).toEqual([]);
  });
});
