import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runRunnableTool } from '@anthropic-ai/sdk/lib/tools/BetaRunnableTool';
import { betaMemoryTool } from '@anthropic-ai/sdk/tools/memory/node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScratchpadError } from '../../../core/errors.js';
import { createScratchpad, type SessionScratchpad } from '../../../service/scratchpad.js';
import type { StoreDriver } from '../../../stores/driver.js';
import { createMemoryDriver } from '../../../stores/memory/index.js';
import { createSqliteDriver } from '../../../stores/sqlite/index.js';
import type { MemoryCommand } from './memory-commands.js';
import { MemoryDirectory, type MemoryDirectoryOptions } from './memory-directory.js';
import { MemoryToolError } from './memory-errors.js';
import { MemoryLayout } from './memory-layout.js';
import { loadMemoryTree } from './memory-tree.js';

const TIMEOUT = 30_000;

/** Runs a command and returns its text, or `Error: <message>` for a memory error (as the tool shows it). */
async function answer(directory: MemoryDirectory, command: MemoryCommand): Promise<string> {
  try {
    return await directory.run(command);
  } catch (error) {
    if (error instanceof MemoryToolError) return `Error: ${error.message}`;
    throw error;
  }
}

/** What every reader sees: each directory as `path/`, each file as `path=content`. */
async function snapshot(session: SessionScratchpad, now: () => number): Promise<string[]> {
  const tree = await loadMemoryTree(session, { layout: new MemoryLayout(), now, timeoutMs: TIMEOUT });
  const shown: string[] = [];
  for (const node of tree.nodes()) {
    if (node.kind === 'directory') shown.push(`${node.path}/`);
    else shown.push(`${node.path}=${(await session.read(node.entry?.name as string)).content}`);
  }
  return shown.sort();
}

/** Entries a finished transaction must not leave behind: journals and transaction flags. */
async function leftovers(session: SessionScratchpad): Promise<string[]> {
  return (await session.list()).entries.flatMap((entry) => {
    if (entry.name.includes('.txn-')) return [entry.name];
    const memory = entry.metadata.memory as { transaction?: string } | undefined;
    return memory?.transaction ? [`${entry.name} flagged`] : [];
  });
}

/**
 * The real memory driver with injected write failures: the `failAt`-th commit or delete after `arm()` throws
 * STORE_UNAVAILABLE; with `crash`, every later one too (the process is gone; nothing it would still do happens).
 */
function faultInjecting(inner: StoreDriver) {
  let writes = 0;
  let failAt = Number.POSITIVE_INFINITY;
  let crash = false;
  const driver = new Proxy(inner, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property !== 'doCommit' && property !== 'doDeleteEntry') return value.bind(target);
      return async (...args: unknown[]) => {
        writes++;
        if (writes === failAt || (crash && writes > failAt))
          throw new ScratchpadError('STORE_UNAVAILABLE', 'injected failure');
        return value.apply(target, args);
      };
    },
  });
  return {
    driver,
    arm(at: number, crashing: boolean) {
      writes = 0;
      failAt = at;
      crash = crashing;
    },
    disarm() {
      failAt = Number.POSITIVE_INFINITY;
      crash = false;
    },
    get writes() {
      return writes;
    },
  };
}

describe('MemoryDirectory', () => {
  let clock = 1_800_000_000_000;
  const now = () => clock;
  const open = (options: MemoryDirectoryOptions = {}) => {
    const session = createScratchpad({ driver: createMemoryDriver() }).session('agent');
    return { session, directory: new MemoryDirectory(session, { now, ...options }) };
  };

  beforeEach(() => {
    clock = 1_800_000_000_000;
  });

  it('keeps one entry per file and directory, named by the hash of the path, with the path in metadata', async () => {
    const { session, directory } = open();
    expect(
      await directory.create({ command: 'create', path: '/memories/notes/todo.md', file_text: 'buy milk\n' }),
    ).toBe('File created successfully at: /memories/notes/todo.md');
    const { entries } = await session.list();
    expect(entries.map((entry) => entry.name).sort()).toEqual(
      [
        directory.layout.nodeName('/memories/notes'),
        directory.layout.nodeName('/memories/notes/todo.md'),
      ].sort(),
    );
    for (const entry of entries) {
      expect(entry.name).toMatch(/^memory\.[0-9a-f]{64}$/);
      expect(entry.pinned).toBe(true);
      expect(entry.expiresAt).toBeNull();
    }
    const file = await session.get(directory.layout.nodeName('/memories/notes/todo.md'));
    expect(file.metadata).toEqual({ memory: { path: '/memories/notes/todo.md', kind: 'file' } });
    expect((await session.read(file.name)).content).toBe('buy milk\n');
    const folder = await session.get(directory.layout.nodeName('/memories/notes'));
    expect(folder).toMatchObject({
      bytes: 0,
      metadata: { memory: { path: '/memories/notes', kind: 'directory' } },
    });
  });

  it('stores paths far longer than a filesystem allows (the SDK fails with ENAMETOOLONG there)', async () => {
    const { directory } = open();
    const long = `/memories/${'n'.repeat(300)}/${`${'d'.repeat(250)}/`.repeat(20)}file-${'é'.repeat(200)}.md`;
    expect(long.length).toBeGreaterThan(5000);
    await directory.create({ command: 'create', path: long, file_text: 'far away' });
    expect(await directory.view({ command: 'view', path: long })).toBe(
      `Here's the content of ${long} with line numbers:\n     1\tfar away`,
    );
    const moved = `/memories/${'m'.repeat(300)}`;
    await directory.rename({ command: 'rename', old_path: `/memories/${'n'.repeat(300)}`, new_path: moved });
    expect(await answer(directory, { command: 'view', path: long })).toBe(
      `Error: The path ${long} does not exist. Please provide a valid path.`,
    );
    expect(
      await directory.view({ command: 'view', path: long.replace(`/memories/${'n'.repeat(300)}`, moved) }),
    ).toContain('far away');
    expect(await directory.delete({ command: 'delete', path: moved })).toBe(`Successfully deleted ${moved}`);
    expect(await directory.view({ command: 'view', path: '/memories' })).toBe(
      "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n4K\t/memories",
    );
  });

  it("plugs into the SDK's own betaMemoryTool() as its handlers", async () => {
    const { directory } = open();
    const tool = betaMemoryTool(directory);
    expect(tool).toMatchObject({ type: 'memory_20250818', name: 'memory' });
    const call = async (input: MemoryCommand) => {
      const toolUse = { id: 'toolu_1', type: 'tool_use', name: 'memory', input } as never;
      return runRunnableTool(tool, input, { toolUse, toolUseBlock: toolUse });
    };
    expect(await call({ command: 'create', path: '/memories/a.md', file_text: 'x\ny' })).toEqual({
      content: 'File created successfully at: /memories/a.md',
      isError: false,
    });
    expect(await call({ command: 'view', path: '/memories/../a.md' })).toEqual({
      content: 'Error: Path /memories/../a.md would escape /memories directory',
      isError: true,
    });
    expect(
      await call({ command: 'insert', path: '/memories/a.md', insert_line: 9, insert_text: 'z' }),
    ).toEqual({
      content:
        'Error: Invalid `insert_line` parameter: 9. It should be within the range of lines of the file: [0, 2]',
      isError: true,
    });
  });

  it('ignores foreign entries under its namespace and entries of other tools', async () => {
    const { session, directory } = open();
    await session.write(`memory.${'f'.repeat(64)}`, 'forged', {
      metadata: { memory: { path: '/memories/forged.md', kind: 'file' } },
    });
    await session.write('memory.txn-0123456789abcdef', '', { metadata: { memoryTransaction: 'garbage' } });
    await session.write('notes', 'an ordinary entry');
    await directory.create({ command: 'create', path: '/memories/real.md', file_text: 'real' });
    expect(await directory.view({ command: 'view', path: '/memories' })).toBe(
      "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n4K\t/memories\n4B\t/memories/real.md",
    );
    expect(await answer(directory, { command: 'view', path: '/memories/forged.md' })).toBe(
      'Error: The path /memories/forged.md does not exist. Please provide a valid path.',
    );
  });

  it('keeps separate memory directories in one session under different namespaces', async () => {
    const { session } = open();
    const alice = new MemoryDirectory(session, { namespace: 'alice' });
    const bob = new MemoryDirectory(session, { namespace: 'bob' });
    await alice.create({ command: 'create', path: '/memories/who.md', file_text: 'alice' });
    await bob.create({ command: 'create', path: '/memories/who.md', file_text: 'bob' });
    expect(await alice.view({ command: 'view', path: '/memories/who.md' })).toContain('\talice');
    expect(await bob.view({ command: 'view', path: '/memories/who.md' })).toContain('\tbob');
    expect(() => new MemoryDirectory(session, { namespace: '../x' })).toThrow(/Invalid memory namespace/);
  });

  it('treats a directory known only from its contents as a directory (a lost directory entry)', async () => {
    const { session, directory } = open();
    await directory.create({ command: 'create', path: '/memories/d/e/f.md', file_text: 'f' });
    await session.delete(directory.layout.nodeName('/memories/d'));
    expect(await directory.view({ command: 'view', path: '/memories' })).toBe(
      "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n4K\t/memories\n4K\t/memories/d/\n4K\t/memories/d/e/",
    );
    await directory.rename({ command: 'rename', old_path: '/memories/d', new_path: '/memories/g' });
    expect(await directory.view({ command: 'view', path: '/memories/g/e/f.md' })).toContain('\tf');
    expect(await session.find(directory.layout.nodeName('/memories/g'))).toBeDefined();
    await directory.delete({ command: 'delete', path: '/memories/g' });
    expect((await session.list()).entries).toEqual([]);
  });

  describe('multi-entry changes are atomic for readers', () => {
    const setupTree = async (directory: MemoryDirectory) => {
      await directory.create({ command: 'create', path: '/memories/d/a.md', file_text: 'alpha' });
      await directory.create({ command: 'create', path: '/memories/d/sub/b.md', file_text: 'beta' });
      await directory.create({ command: 'create', path: '/memories/d/.hidden', file_text: 'h' });
      await directory.create({ command: 'create', path: '/memories/keep.md', file_text: 'keep' });
    };
    const operations: Array<{ title: string; command: MemoryCommand }> = [
      {
        title: 'rename of a directory',
        command: { command: 'rename', old_path: '/memories/d', new_path: '/memories/x/y' },
      },
      {
        title: 'rename of a file',
        command: { command: 'rename', old_path: '/memories/keep.md', new_path: '/memories/kept.md' },
      },
      { title: 'delete of a directory', command: { command: 'delete', path: '/memories/d' } },
    ];

    for (const { title, command } of operations) {
      for (const crash of [false, true]) {
        it(`${title}: a ${crash ? 'crash' : 'failure'} at any write shows the old or the new tree, then recovers cleanly`, async () => {
          const reference = open();
          await setupTree(reference.directory);
          const before = await snapshot(reference.session, now);
          const counter = faultInjecting(createMemoryDriver());
          const probe = createScratchpad({ driver: counter.driver }).session('agent');
          await setupTree(new MemoryDirectory(probe, { now }));
          counter.arm(Number.POSITIVE_INFINITY, false);
          await new MemoryDirectory(probe, { now }).run(command);
          const totalWrites = counter.writes;
          const after = await snapshot(probe, now);
          expect(after).not.toEqual(before);

          for (let failAt = 1; failAt <= totalWrites; failAt++) {
            clock = 1_800_000_000_000;
            const store = faultInjecting(createMemoryDriver());
            const session = createScratchpad({ driver: store.driver }).session('agent');
            const directory = new MemoryDirectory(session, { now });
            await setupTree(directory);
            store.arm(failAt, crash);
            let failed = false;
            try {
              await directory.run(command);
            } catch (error) {
              expect(ScratchpadError.hasCode(error, 'STORE_UNAVAILABLE')).toBe(true);
              failed = true;
            }
            // As with the SDK, a rename that fails keeps the destination's parent directories if it made them.
            const visible = await snapshot(session, now);
            const expected = !failed
              ? after
              : visible.includes('/memories/x/')
                ? [...before, '/memories/x/'].sort()
                : before;
            expect(visible, `write ${failAt} failed`).toEqual(expected);
            store.disarm();
            expect(await snapshot(session, now), `write ${failAt}, store back`).toEqual(expected);
            clock += TIMEOUT;
            expect(await snapshot(session, now), `write ${failAt}, after the timeout`).toEqual(expected);
            expect(await leftovers(session), `write ${failAt}`).toEqual([]);
            // The recovered tree is fully usable.
            await directory.create({ command: 'create', path: '/memories/d/new.md', file_text: 'n' });
            await directory.delete({ command: 'delete', path: '/memories/d' });
          }
        });
      }
    }

    it("keeps a dead writer's pending move visible as the old tree, refuses to change it, and rolls it back after the timeout", async () => {
      const store = faultInjecting(createMemoryDriver());
      const session = createScratchpad({ driver: store.driver }).session('agent');
      const directory = new MemoryDirectory(session, { now });
      await setupTree(directory);
      const before = await snapshot(session, now);
      store.arm(7, true); // the journal and the five entries of /memories/d flagged, then the process dies
      await expect(
        directory.rename({ command: 'rename', old_path: '/memories/d', new_path: '/memories/e' }),
      ).rejects.toThrow('injected failure');
      store.disarm();
      expect(await snapshot(session, now)).toEqual(before);
      await expect(
        directory.str_replace({
          command: 'str_replace',
          path: '/memories/d/a.md',
          old_str: 'alpha',
          new_str: 'A',
        }),
      ).rejects.toThrow(/being moved or deleted by another command/);
      expect(
        await directory.str_replace({
          command: 'str_replace',
          path: '/memories/keep.md',
          old_str: 'keep',
          new_str: 'K',
        }),
      ).toContain('K');
      clock += TIMEOUT;
      expect(
        await directory.str_replace({
          command: 'str_replace',
          path: '/memories/d/a.md',
          old_str: 'alpha',
          new_str: 'A',
        }),
      ).toContain('A');
      expect(await leftovers(session)).toEqual([]);
    });
  });

  it("does not see or overwrite another writer's pending additions, and says so once it gives up", async () => {
    const { session, directory } = open();
    const { layout } = directory;
    await session.write(layout.journalName('00000000000000bb'), '', {
      metadata: layout.journalMetadata({
        id: '00000000000000bb',
        state: 'pending',
        command: 'rename',
        startedAt: clock,
        from: '/memories/d',
        to: '/memories/e',
      }),
    });
    await session.write(layout.nodeName('/memories/e'), 'hidden', {
      metadata: layout.nodeMetadata({
        path: '/memories/e',
        kind: 'file',
        transaction: '00000000000000bb',
        role: 'add',
      }),
    });
    expect(await answer(directory, { command: 'view', path: '/memories/e' })).toBe(
      'Error: The path /memories/e does not exist. Please provide a valid path.',
    );
    await expect(
      directory.create({ command: 'create', path: '/memories/e', file_text: 'mine' }),
    ).rejects.toMatchObject({
      code: 'VERSION_CONFLICT',
      message: 'The memory directory kept changing under this command.',
    });
    expect((await session.read(layout.nodeName('/memories/e'))).content).toBe('hidden');
    clock += TIMEOUT;
    expect(await directory.create({ command: 'create', path: '/memories/e', file_text: 'mine' })).toBe(
      'File created successfully at: /memories/e',
    );
    expect(await directory.view({ command: 'view', path: '/memories/e' })).toContain('\tmine');
  });

  it('never loses a concurrent edit of a file that is being moved', async () => {
    for (let stagger = 0; stagger < 40; stagger++) {
      const { session, directory } = open();
      await directory.create({ command: 'create', path: '/memories/d/a.md', file_text: 'one\ntwo\n' });
      const other = new MemoryDirectory(session, { now });
      const edit = (async () => {
        for (let tick = 0; tick < stagger; tick++) await Promise.resolve();
        return other
          .str_replace({ command: 'str_replace', path: '/memories/d/a.md', old_str: 'two', new_str: 'TWO' })
          .then(
            () => 'edited',
            (error: unknown) => (ScratchpadError.isInstance(error) ? error.code : Promise.reject(error)),
          );
      })();
      const move = directory.rename({ command: 'rename', old_path: '/memories/d', new_path: '/memories/e' });
      const [edited] = await Promise.all([edit, move]);
      const content = (await directory.view({ command: 'view', path: '/memories/e/a.md' }))
        .split('\n')
        .slice(1)
        .join('\n');
      expect(content, `stagger ${stagger}: ${edited}`).toBe(
        edited === 'edited' ? '     1\tone\n     2\tTWO\n     3\t' : '     1\tone\n     2\ttwo\n     3\t',
      );
      expect(['edited', 'ENTRY_NOT_FOUND', 'VERSION_CONFLICT']).toContain(edited);
      expect(await leftovers(session)).toEqual([]);
    }
  });

  describe('on a SQLite file', () => {
    let directoryPath: string;
    afterEach(async () => {
      await rm(directoryPath, { recursive: true, force: true });
    });

    it('survives closing and reopening the store', async () => {
      directoryPath = await mkdtemp(join(tmpdir(), 'memory-sqlite-'));
      const path = join(directoryPath, 'store.db');
      const first = createScratchpad({ driver: createSqliteDriver({ path }) });
      const memory = new MemoryDirectory(first.session('user-42'));
      await memory.create({
        command: 'create',
        path: '/memories/project/plan.md',
        file_text: '1. ship it\n',
      });
      await memory.rename({
        command: 'rename',
        old_path: '/memories/project',
        new_path: '/memories/archive',
      });
      await first.close();
      const second = createScratchpad({ driver: createSqliteDriver({ path }) });
      const reopened = new MemoryDirectory(second.session('user-42'));
      expect(await reopened.view({ command: 'view', path: '/memories' })).toBe(
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n4K\t/memories\n4K\t/memories/archive/\n11B\t/memories/archive/plan.md",
      );
      await second.close();
    });
  });
});
