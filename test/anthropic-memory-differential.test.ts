/**
 * Differential test of the `anthropic-memory` preset against the Anthropic SDK's own filesystem handler.
 *
 * The same command sequences run on both sides:
 * - the SDK: `BetaLocalFilesystemMemoryTool` over a fresh temp directory, called through `betaMemoryTool()` and the
 *   SDK's `runRunnableTool()`, i.e. exactly the tool-result text and `is_error` flag the SDK's tool runner sends to
 *   the model (`Error: <message>` for a thrown error);
 * - ours: the preset's `memory` tool through `runTool()` over a real store (the memory driver, and a real SQLite file).
 * Every result text and error flag must be identical.
 *
 * Normalization (applied to the SDK side only, because only it has a host directory): the SDK passes some OS errors
 * through verbatim (`ENOTDIR … realpath '<tmp>/memories/a/b'`, `EINVAL … rename`, Node's NUL-byte message), and
 * those contain the temp directory's absolute path. `<tmp>/memories` is replaced by `/memories`, which is exactly the
 * virtual path our preset prints there. If the temp filesystem does not report 4096 bytes for a small directory
 * (ext4 does; tmpfs and btrfs do not), directory sizes in listings are masked on both sides, since ours always print
 * ext4's `4K`.
 *
 * Not compared, on purpose (see src/tools/presets/anthropic-memory/README.md, "Divergences"):
 * - malformed input (missing fields, wrong types, unknown commands): the SDK crashes with a JS TypeError text, we
 *   answer with a validation error;
 * - names longer than 255 bytes or paths longer than 4095 (the SDK fails with ENAMETOOLONG; we store them);
 * - paths that climb above the parent of /memories and come back down by naming the host's directories;
 * - symlinks (the tool cannot create them) and directories with so many entries that ext4 grows them past 4 KiB.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runRunnableTool } from '@anthropic-ai/sdk/lib/tools/BetaRunnableTool';
import { BetaLocalFilesystemMemoryTool, betaMemoryTool } from '@anthropic-ai/sdk/tools/memory/node';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchpad, type Scratchpad } from '../src/service/scratchpad.js';
import type { StoreDriver } from '../src/stores/driver.js';
import { createMemoryDriver } from '../src/stores/memory/index.js';
import { createAnthropicMemoryPreset, MemoryDirectory } from '../src/tools/presets/anthropic-memory/index.js';
import { runTool } from '../src/tools/tool.js';

type Command = Record<string, unknown> & { command: string };

interface Outcome {
  text: string;
  isError: boolean;
}

/** A store backend to run our side on. */
interface StoreFactory {
  name: string;
  open(directory: string): Promise<StoreDriver>;
}

const SQLITE_INDEX = new URL('../src/stores/sqlite/index.ts', import.meta.url);

/** The memory driver always; SQLite when its backend is in the tree (a real database file per subject). */
const STORE_FACTORIES: StoreFactory[] = [
  { name: 'memory driver', open: async () => createMemoryDriver() },
  ...(existsSync(SQLITE_INDEX)
    ? [
        {
          name: 'sqlite file',
          open: async (directory: string) => {
            const sqlite = (await import(SQLITE_INDEX.href)) as {
              createSqliteDriver(config: { path: string }): StoreDriver;
            };
            return sqlite.createSqliteDriver({ path: join(directory, 'store.db') });
          },
        },
      ]
    : []),
];

let workspace: string;
let directorySizesAreExt4 = true;

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'anthropic-memory-diff-')));
  const probe = join(workspace, 'probe');
  await mkdir(probe);
  directorySizesAreExt4 = (await stat(probe)).size === 4096;
});

afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

/** Both sides, fresh and empty. */
class Pair {
  readonly #sdk: ReturnType<typeof betaMemoryTool>;
  readonly #sdkRoot: string;
  readonly scratchpad: Scratchpad;
  readonly #tool = createAnthropicMemoryPreset().tools[0]!;

  private constructor(sdk: ReturnType<typeof betaMemoryTool>, sdkRoot: string, scratchpad: Scratchpad) {
    this.#sdk = sdk;
    this.#sdkRoot = sdkRoot;
    this.scratchpad = scratchpad;
  }

  static async open(factory: StoreFactory): Promise<Pair> {
    const directory = await mkdtemp(join(workspace, 'case-'));
    const handler = await BetaLocalFilesystemMemoryTool.init(join(directory, 'sdk'));
    const scratchpad = createScratchpad({ driver: await factory.open(directory) });
    return new Pair(betaMemoryTool(handler), join(directory, 'sdk', 'memories'), scratchpad);
  }

  get session() {
    return this.scratchpad.session('memory-test');
  }

  async sdk(command: Command): Promise<Outcome> {
    const toolUse = { id: 'toolu_test', type: 'tool_use', name: 'memory', input: command } as never;
    const outcome = await runRunnableTool(this.#sdk, command, { toolUse, toolUseBlock: toolUse });
    if (typeof outcome.content !== 'string') throw new Error('the SDK answered with blocks');
    return {
      text: normalize(outcome.content.replaceAll(this.#sdkRoot, '/memories')),
      isError: outcome.isError,
    };
  }

  async ours(command: Command): Promise<Outcome> {
    const output = await runTool(this.#tool, command, { session: this.session });
    return { text: normalize(output.text), isError: output.isError === true };
  }

  /** Runs one command on both sides and returns both outcomes. */
  async both(command: Command): Promise<{ sdk: Outcome; ours: Outcome }> {
    return { sdk: await this.sdk(command), ours: await this.ours(command) };
  }

  /** Every file and directory the SDK has on disk (hidden ones included), as `/memories/...` paths. */
  async sdkPaths(): Promise<string[]> {
    const found: string[] = [];
    const walk = async (directory: string, prefix: string): Promise<void> => {
      for (const item of await readdir(directory, { withFileTypes: true })) {
        const path = `${prefix}/${item.name}`;
        found.push(`${path}${item.isDirectory() ? '/' : ''}`);
        if (item.isDirectory()) await walk(join(directory, item.name), path);
      }
    };
    await walk(this.#sdkRoot, '/memories');
    return found.sort();
  }

  /** Every file and directory our store holds, in the same form. */
  async ourPaths(): Promise<string[]> {
    const directory = new MemoryDirectory(this.session);
    const { entries } = await this.session.list({ prefix: directory.layout.prefix });
    return entries
      .flatMap((entry) => {
        const node = directory.layout.nodeOf(entry);
        return node ? [`${node.path}${node.kind === 'directory' ? '/' : ''}`] : [];
      })
      .sort();
  }

  close(): Promise<void> {
    return this.scratchpad.close();
  }
}

function normalize(text: string): string {
  if (directorySizesAreExt4 || !text.startsWith("Here're the files")) return text;
  return text
    .split('\n')
    .map((line, index) => (index === 1 || line.endsWith('/') ? line.replace(/^[^\t]+\t/, 'DIR\t') : line))
    .join('\n');
}

/** Runs a scenario on both sides, asserting after each command; returns the SDK's outcomes for spot checks. */
async function expectSame(factory: StoreFactory, commands: Command[]): Promise<Outcome[]> {
  const pair = await Pair.open(factory);
  try {
    const outcomes: Outcome[] = [];
    for (const [index, command] of commands.entries()) {
      const { sdk, ours } = await pair.both(command);
      expect(ours, `command ${index}: ${JSON.stringify(command)}`).toEqual(sdk);
      outcomes.push(sdk);
    }
    expect(await pair.ourPaths()).toEqual(await pair.sdkPaths());
    return outcomes;
  } finally {
    await pair.close();
  }
}

const view = (path: string, view_range?: number[]): Command =>
  view_range ? { command: 'view', path, view_range } : { command: 'view', path };
const create = (path: string, file_text: string): Command => ({ command: 'create', path, file_text });
const replace = (path: string, old_str: string, new_str: string): Command => ({
  command: 'str_replace',
  path,
  old_str,
  new_str,
});
const insert = (path: string, insert_line: number, insert_text: string): Command => ({
  command: 'insert',
  path,
  insert_line,
  insert_text,
});
const remove = (path: string): Command => ({ command: 'delete', path });
const rename = (old_path: string, new_path: string): Command => ({ command: 'rename', old_path, new_path });

const NOTES = 'first line\nsecond line\nthird line\nfourth line\nfifth line\n';

/** Named scenarios: each one runs on a fresh pair. */
const SCENARIOS: Record<string, Command[]> = {
  'view of an empty root, with and without a trailing slash': [
    view('/memories'),
    view('/memories/'),
    view('/memories/.'),
  ],
  'view of a populated root: nesting, depth limit, sort order, hidden items, node_modules, sizes': [
    create('/memories/notes.md', NOTES),
    create('/memories/B.txt', 'upper case sorts first'),
    create('/memories/a/b/c/d/deep.txt', 'four levels down'),
    create('/memories/a/one.txt', ''),
    create('/memories/a/b/two.txt', 'x'.repeat(1536)),
    create('/memories/.hidden', 'secret'),
    create('/memories/.dot-dir/inside.txt', 'not listed'),
    create('/memories/node_modules/pkg/index.js', 'not listed'),
    create('/memories/a/node_modules/x.js', 'not listed either'),
    create('/memories/a/.cache', 'hidden at depth 2'),
    create('/memories/big.bin', 'y'.repeat(1024 * 1024 + 300)),
    create('/memories/kib.txt', 'z'.repeat(1024)),
    create('/memories/émoji 🎉.txt', 'ünïcödé names'),
    view('/memories'),
    view('/memories/'),
    view('/memories/a'),
    view('/memories/a/'),
    view('/memories/a/b'),
    view('/memories/.dot-dir'),
    view('/memories/node_modules'),
    view('/memories/.hidden'),
  ],
  'view of a file, with and without view_range': [
    create('/memories/notes.md', NOTES),
    view('/memories/notes.md'),
    view('/memories/notes.md/'),
    view('/memories/notes.md', [2, 4]),
    view('/memories/notes.md', [2, -1]),
    view('/memories/notes.md', [1, 1]),
    view('/memories/notes.md', [0, 2]),
    view('/memories/notes.md', [-5, 2]),
    view('/memories/notes.md', [4, 2]),
    view('/memories/notes.md', [10, 20]),
    view('/memories/notes.md', [3, 100]),
    view('/memories/notes.md', [2, -2]),
    view('/memories/notes.md', [6, -1]),
    view('/memories/notes.md', [3]),
    view('/memories/notes.md', [1, 2, 3]),
    view('/memories/notes.md', []),
    view('/memories/missing.md'),
    view('/memories/missing/deeper.md'),
  ],
  'view_range null is ignored': [
    create('/memories/n.md', 'a\nb'),
    { command: 'view', path: '/memories/n.md', view_range: null },
  ],
  'trailing newlines, empty files, CRLF': [
    create('/memories/empty.txt', ''),
    create('/memories/newline.txt', '\n'),
    create('/memories/two.txt', 'a\n\n'),
    create('/memories/crlf.txt', 'one\r\ntwo\r\n'),
    view('/memories/empty.txt'),
    view('/memories/newline.txt'),
    view('/memories/two.txt'),
    view('/memories/crlf.txt'),
    view('/memories'),
    insert('/memories/empty.txt', 0, 'top\n'),
    insert('/memories/newline.txt', 2, 'end'),
    view('/memories/empty.txt'),
    view('/memories/newline.txt'),
  ],
  'unicode content and sizes': [
    create('/memories/u.txt', 'héllo wörld\n日本語のテキスト\n🌍🚀 emoji\n\u0000nul and \t tab\n'),
    view('/memories/u.txt'),
    view('/memories'),
    replace('/memories/u.txt', '日本語', 'にほんご'),
    replace('/memories/u.txt', '🚀', '🛰️'),
    view('/memories/u.txt'),
    view('/memories'),
    create('/memories/surrogate.txt', 'lone \ud800 surrogate'),
    view('/memories/surrogate.txt'),
    create('/memories/name-\udc00.md', 'a lone surrogate in a name is stored as U+FFFD'),
    view('/memories/name-\ufffd.md'),
    create('/memories/name-\ufffd.md', 'so this one exists already'),
    view('/memories'),
  ],
  'create: new, existing, nested parents, over a directory, the root': [
    create('/memories/a.txt', 'one'),
    create('/memories/a.txt', 'two'),
    create('/memories/x/y/z/file.txt', 'deep'),
    create('/memories/x', 'over a dir'),
    create('/memories/x/y/', 'over a dir with slash'),
    create('/memories', 'the root'),
    create('/memories/', 'the root with slash'),
    create('/memories/trailing/', 'trailing slash on a new file'),
    create('/memories/a.txt/inside', 'through a file'),
    create('/memories/a.txt/inside/deeper', 'through a file'),
    view('/memories'),
    view('/memories/a.txt'),
    view('/memories/trailing'),
  ],
  'str_replace: unique, missing, multiple, same line twice, multi-line, empty old_str, $ patterns': [
    create('/memories/r.md', 'alpha beta\ngamma delta\nalpha again\nepsilon\nzeta\neta\ntheta\n'),
    replace('/memories/r.md', 'gamma', 'GAMMA'),
    replace('/memories/r.md', 'nowhere', 'x'),
    replace('/memories/r.md', 'alpha', 'x'),
    replace('/memories/r.md', 'beta\ngamma', 'x'),
    replace('/memories/r.md', 'zeta', 'z1\nz2\nz3'),
    replace('/memories/r.md', 'eps', "$& $1 $$ $'"),
    view('/memories/r.md'),
    create('/memories/same-line.md', 'ab ab ab'),
    replace('/memories/same-line.md', 'ab', 'X'),
    view('/memories/same-line.md'),
    create('/memories/one-line.md', 'single'),
    replace('/memories/one-line.md', '', 'prefix-'),
    replace('/memories/r.md', '', 'prefix-'),
    view('/memories/one-line.md'),
    replace('/memories/r.md', 'alpha beta', 'first'),
    replace('/memories/missing.md', 'a', 'b'),
    create('/memories/dir/f.md', 'f'),
    replace('/memories/dir', 'a', 'b'),
    replace('/memories/r.md', 'theta', ''),
    view('/memories/r.md'),
  ],
  'insert: start, middle, end, out of range, into directories and missing files': [
    create('/memories/i.md', 'one\ntwo\nthree'),
    insert('/memories/i.md', 0, 'zero'),
    insert('/memories/i.md', 2, 'one and a half\n'),
    insert('/memories/i.md', 5, 'end'),
    insert('/memories/i.md', 7, 'too far'),
    insert('/memories/i.md', -1, 'negative'),
    insert('/memories/i.md', 6, 'two\nlines\n\n'),
    view('/memories/i.md'),
    insert('/memories/missing.md', 0, 'x'),
    create('/memories/d/f.md', 'x'),
    insert('/memories/d', 0, 'x'),
  ],
  'delete: file, directory tree, root, missing, hidden, through a file': [
    create('/memories/keep.md', 'k'),
    create('/memories/tree/a.md', 'a'),
    create('/memories/tree/sub/b.md', 'b'),
    create('/memories/tree/.hidden', 'h'),
    create('/memories/tree/empty/.keep', ''),
    remove('/memories/tree/empty/.keep'),
    view('/memories/tree'),
    remove('/memories/tree/empty'),
    remove('/memories/tree'),
    remove('/memories/tree'),
    remove('/memories/tree/a.md'),
    view('/memories'),
    remove('/memories'),
    remove('/memories/'),
    remove('/memories/.'),
    remove('/memories/x/..'),
    remove('/memories/keep.md/x'),
    remove('/memories/keep.md/'),
    view('/memories'),
  ],
  'rename: file, directory, onto existing, missing source, new parents, into itself, root': [
    create('/memories/a.md', 'A'),
    create('/memories/b.md', 'B'),
    create('/memories/dir/one.md', '1'),
    create('/memories/dir/sub/two.md', '2'),
    rename('/memories/a.md', '/memories/c.md'),
    rename('/memories/c.md', '/memories/b.md'),
    rename('/memories/c.md', '/memories/c.md'),
    rename('/memories/c.md', '/memories/dir'),
    rename('/memories/missing.md', '/memories/new/parents/x.md'),
    view('/memories'),
    rename('/memories/dir', '/memories/moved/deeper/dir2'),
    view('/memories'),
    view('/memories/moved/deeper/dir2/sub/two.md'),
    rename('/memories/moved', '/memories/moved/inside'),
    rename('/memories/moved', '/memories/moved/inside/deeper'),
    view('/memories'),
    rename('/memories/zz', '/memories/zz/a'),
    view('/memories'),
    rename('/memories', '/memories/x'),
    rename('/memories/', '/memories/x'),
    rename('/memories/b.md', '/memories'),
    rename('/memories/b.md', '/memories/c.md/x'),
    rename('/memories/c.md/x', '/memories/y'),
    rename('/memories/b.md', '/memories/.hidden.md'),
    rename('/memories/c.md/', '/memories/d.md/'),
    rename('/memories/new', '/memories/renamed-empty-dirs'),
    view('/memories'),
    view('/memories/.hidden.md'),
  ],
  'path errors and traversal': [
    create('/memories/ok.md', 'ok'),
    view('/etc/passwd'),
    create('/etc/passwd', 'x'),
    view('/memories/../etc/passwd'),
    view('/memories/../x'),
    view('/memories/..'),
    view('/memories/../'),
    view('/memories/a/../../x'),
    view('/memories/../memories/ok.md'),
    view('/memories/../memoriesX/ok.md'),
    view('/memories/./ok.md'),
    view('/memories//ok.md'),
    view('/memories/sub/../ok.md'),
    view('/memories/..%2f'),
    view('/memories/..%2fetc%2fpasswd'),
    view('/memories/%2e%2e/x'),
    create('/memories/..%2f', 'literal name'),
    view('/memories'),
    view('/memories/..%2f'),
    view('/memoriesX/a'),
    create('/memoriesX/a', 'aliases /memories/X/a'),
    view('/memories/X/a'),
    view('/memories'),
    view('/memories_backup/x'),
    view('memories/ok.md'),
    view('ok.md'),
    view(''),
    view('/'),
    view('/Memories/ok.md'),
    view(' /memories/ok.md'),
    view('\\memories\\ok.md'),
    view('/memories\\..\\etc'),
    create('/memories\\..\\etc', 'backslashes are name characters'),
    create('/memories/back\\slash.md', 'b'),
    view('/memories'),
    view('/memories/a\u0000b'),
    create('/memories/a\u0000b', 'x'),
    rename('/memories/ok.md', '/memories/../ok.md'),
    rename('/memories/../ok.md', '/memories/ok2.md'),
    rename('/etc/x', '/memories/ok2.md'),
    remove('/memories/..'),
    remove('/etc'),
    replace('/memories/../ok.md', 'a', 'b'),
    insert('/memories/../ok.md', 0, 'b'),
  ],
  'errors through files (ENOTDIR) in every command': [
    create('/memories/f.md', 'f'),
    view('/memories/f.md/x'),
    create('/memories/f.md/x/y', 'y'),
    replace('/memories/f.md/x', 'a', 'b'),
    insert('/memories/f.md/x', 0, 'b'),
    remove('/memories/f.md/x'),
    rename('/memories/f.md/x', '/memories/g.md'),
    rename('/memories/f.md', '/memories/f.md/x'),
  ],
  'too many lines': [create('/memories/big.txt', '\n'.repeat(999_999)), view('/memories/big.txt', [1, 2])],
  'exactly the maximum number of lines': [
    create('/memories/max.txt', '\n'.repeat(999_998)),
    view('/memories/max.txt', [999_997, -1]),
  ],
};

for (const factory of STORE_FACTORIES) {
  describe(`anthropic-memory preset vs the SDK's BetaLocalFilesystemMemoryTool (${factory.name})`, () => {
    for (const [title, commands] of Object.entries(SCENARIOS)) {
      it(title, async () => {
        await expectSame(factory, commands);
      });
    }

    it('pins a few SDK answers literally (so a change on both sides would be noticed)', async () => {
      const outcomes = await expectSame(factory, [
        create('/memories/notes.md', 'a\nb\nc\n'),
        view('/memories'),
        view('/memories/notes.md', [2, -1]),
        replace('/memories/notes.md', 'b', 'B'),
        view('/memories/../x'),
        remove('/memories'),
      ]);
      expect(outcomes.map((outcome) => outcome.text)).toEqual([
        'File created successfully at: /memories/notes.md',
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n" +
          `${directorySizesAreExt4 ? '4K' : 'DIR'}\t/memories\n6B\t/memories/notes.md`,
        "Here's the content of /memories/notes.md with line numbers:\n     2\tb\n     3\tc\n     4\t",
        'The memory file has been edited. Here is the snippet showing the change (with line numbers):\n     1\ta\n     2\tB\n     3\tc\n     4\t',
        'Error: Path /memories/../x would escape /memories directory',
        'Error: Cannot delete the /memories directory itself',
      ]);
      expect(outcomes.map((outcome) => outcome.isError)).toEqual([false, false, false, false, true, true]);
    });

    it('random command sequences give identical outputs and identical trees', async () => {
      await fc.assert(
        fc.asyncProperty(commandSequence(), async (commands) => {
          await expectSame(factory, commands);
        }),
        { numRuns: factory.name === 'memory driver' ? 300 : 100 },
      );
    }, 240_000);
  });
}

/** Paths from a small set, so random sequences collide, nest, and hit the edge cases often. */
function memoryPath(): fc.Arbitrary<string> {
  const common = fc.constantFrom(
    '/memories/a.md',
    '/memories/a.md',
    '/memories/b',
    '/memories/dir',
    '/memories/dir/',
    '/memories/dir/c.md',
    '/memories/dir/sub',
    '/memories/dir/sub/d.md',
    '/memories/dir/sub/deep/e.md',
    '/memories/.hidden',
    '/memories/node_modules/m.js',
    '/memories/Ä.txt',
  );
  const segment = fc.constantFrom('a.md', 'b', 'dir', 'sub', 'c.md', 'x y', '..', '.', '');
  const composed = fc
    .array(segment, { minLength: 1, maxLength: 4 })
    .map((segments) => `/memories/${segments.join('/')}`);
  const odd = fc.constantFrom(
    '/memories',
    '/memories/',
    '/memoriesX/a',
    'memories/a',
    '/etc/passwd',
    '/memories/../x',
    '/memories/a\\b',
  );
  return fc.oneof(
    { arbitrary: common, weight: 12 },
    { arbitrary: composed, weight: 4 },
    { arbitrary: odd, weight: 1 },
  );
}

function fileText(): fc.Arbitrary<string> {
  const line = fc.constantFrom('alpha', 'beta', 'alpha beta', 'gamma', 'γλώσσα', '🌍', '', ' ', 'tab\there');
  return fc
    .tuple(fc.array(line, { maxLength: 6 }), fc.boolean())
    .map(([lines, trailingNewline]) => lines.join('\n') + (trailingNewline ? '\n' : ''));
}

function command(): fc.Arbitrary<Command> {
  const word = fc.constantFrom(
    'alpha beta',
    'beta',
    'gamma',
    'γλώσσα',
    '🌍',
    'a',
    '',
    'missing',
    'alpha\nbeta',
    '$&',
  );
  const lineNumber = fc.integer({ min: -2, max: 8 });
  return fc.oneof(
    memoryPath().map((path) => view(path)),
    fc
      .tuple(memoryPath(), lineNumber, fc.oneof(lineNumber, fc.constant(-1)))
      .map(([path, start, end]) => view(path, [start, end])),
    fc.tuple(memoryPath(), fileText()).map(([path, text]) => create(path, text)),
    {
      arbitrary: fc
        .tuple(memoryPath(), word, word)
        .map(([path, old, replacement]) => replace(path, old, replacement)),
      weight: 3,
    },
    {
      arbitrary: fc
        .tuple(memoryPath(), lineNumber, fileText())
        .map(([path, line, text]) => insert(path, line, text)),
      weight: 2,
    },
    memoryPath().map((path) => remove(path)),
    fc.tuple(memoryPath(), memoryPath()).map(([from, to]) => rename(from, to)),
  );
}

function commandSequence(): fc.Arbitrary<Command[]> {
  // Start from a few files so the later commands have something to work on.
  const seed = fc.array(
    fc.tuple(memoryPath(), fileText()).map(([path, text]) => create(path, text)),
    { minLength: 2, maxLength: 6 },
  );
  return fc
    .tuple(seed, fc.array(command(), { minLength: 1, maxLength: 25 }))
    .map(([first, rest]) => [...first, ...rest, view('/memories')]);
}
