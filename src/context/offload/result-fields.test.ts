import { describe, expect, it } from 'vitest';
import { createScratchpad } from '../../service/scratchpad.js';
import { createMemoryDriver } from '../../stores/memory/index.js';
import { wrapTools } from '../../tools/wrap-tools.js';
import { createOffloadPolicy, type ObservationFormat } from './offload-policy.js';
import { createOffloader, type OffloadOutcome } from './offloader.js';

function setup(format: ObservationFormat = 'default') {
  const session = createScratchpad({ driver: createMemoryDriver() }).session('fields');
  return { session, offloader: createOffloader({ session, policy: createOffloadPolicy({ format }) }) };
}

function offloaded(outcome: OffloadOutcome) {
  if (!outcome.offloaded) throw new Error(`expected an offload, got inline (${outcome.reason})`);
  return outcome;
}

const log = 'ERROR build step failed\n'.repeat(3000);

describe('the fields of a {ok, content, metadata} result beside its content', () => {
  for (const format of ['default', 'named', 'metnos'] as const) {
    it(`${format}: ok: false and other fields are kept with the entry and shown with its metadata`, async () => {
      const { session, offloader } = setup(format);
      const result = {
        ok: false,
        content: log,
        metadata: { path: '/b.log' },
        error: 'exit status 2',
        exitCode: 2,
      };
      const outcome = offloaded(await offloader.process({ tool: 'bash', result }));
      expect((await session.read(outcome.entry.name, { type: 'full' })).content).toBe(log);
      const fields = { ok: false, error: 'exit status 2', exitCode: 2 };
      expect(outcome.entry.metadata).toEqual({ path: '/b.log', resultFields: fields });
      expect(outcome.text).toContain(JSON.stringify({ path: '/b.log', resultFields: fields }).slice(1, -1));
    });
  }

  it('a streamed result (describeStored): its fields are added to the entry it names and shown', async () => {
    const { session, offloader } = setup();
    const { entry } = await session.write('shell_exec_1', log);
    const shell = { ok: false, metadata: { exit_code: 2 }, error: 'exit status 2' };
    const outcome = await offloader.describeStored({
      tool: 'shell_exec',
      entry,
      metadata: shell.metadata,
      shell,
    });
    const fields = { exit_code: 2, resultFields: { ok: false, error: 'exit status 2' } };
    expect((await session.get(entry.name)).metadata).toEqual(fields);
    expect(outcome.text).toContain(`Metadata: ${JSON.stringify(fields)}`);
  });

  it('ok: true alone adds nothing (every observation of an offload reports the success)', async () => {
    const { offloader } = setup();
    const outcome = offloaded(
      await offloader.process({
        tool: 'bash',
        result: { ok: true, content: log, metadata: { path: '/b.log' } },
      }),
    );
    expect(outcome.entry.metadata).toEqual({ path: '/b.log' });
  });

  it('fields too long to show whole: the whole result is stored as JSON, so nothing cut is stored nowhere', async () => {
    const { session, offloader } = setup();
    const result = {
      ok: false,
      content: log,
      metadata: {},
      diagnostics: 'warning: unused variable\n'.repeat(200),
    };
    const outcome = offloaded(await offloader.process({ tool: 'bash', result }));
    const stored = (await session.read(outcome.entry.name, { type: 'full' })).content;
    expect(stored).toBe(JSON.stringify(result, null, 2));
    expect(outcome.storedField).toBeNull();
  });

  it('wrapTools: a host tool that fails with {ok: false, content, error} — the model reads the error', async () => {
    const session = createScratchpad({ driver: createMemoryDriver() }).session('wrap');
    const [tool] = wrapTools(
      [
        {
          name: 'build',
          inputSchema: { type: 'object', properties: {} },
          execute: () => ({ ok: false, content: log, metadata: {}, error: 'exit status 2' }),
        },
      ],
      { session },
    );
    const answer = await tool?.execute({});
    expect(answer?.entry).toBeDefined();
    expect(answer?.text).toContain('"resultFields":{"ok":false,"error":"exit status 2"}');
    const entry = await session.get(answer?.entry?.name as string);
    expect(entry?.metadata).toEqual({ resultFields: { ok: false, error: 'exit status 2' } });
    // Saved under a name the model gives (seed 004's parameter): the confirmation shows them too.
    const saved = await tool?.execute({ scratchpad: 'build_log' });
    expect(saved?.text).toContain('Metadata: {"resultFields":{"ok":false,"error":"exit status 2"}}');
    expect((await session.read('build_log', { type: 'full' })).content).toBe(log);
  });
});
