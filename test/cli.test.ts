import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './helpers/built-cli.js';
import { runCliSync, type SyncRun } from './helpers/run-cli-sync.js';

let cli: string;
let home: string;
beforeAll(() => {
  cli = builtCli();
  home = mkdtempSync(join(tmpdir(), 'scratchpad-cli-'));
}, 120_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

function run(args: string[], input?: string | Buffer, env: Record<string, string> = {}): SyncRun {
  return runCliSync(cli, home, args, input, env);
}

describe('scratchpad CLI', () => {
  const db = () => join(home, 'cli.db');

  it('writes stdin and reads back exactly, by default in $XDG_DATA_HOME/scratchpad/scratchpad.db', () => {
    const written = run(['write', 'greeting'], 'hello\r\nworld');
    expect(written).toMatchObject({ code: 0, stderr: '' });
    expect(written.stdout).toMatch(/^created greeting: 12 chars, 2 lines \(version 1, id [0-9a-f]{16}\)\n$/);
    expect(
      readFileSync(join(home, 'data', 'scratchpad', 'scratchpad.db'))
        .subarray(0, 15)
        .toString(),
    ).toBe('SQLite format 3');
    const read = run(['read', 'greeting']);
    expect(read).toMatchObject({ code: 0, stdout: 'hello\r\nworld', stderr: '' });
  });

  it('prints exactly the slice for every slice flag', () => {
    const text = 'line one\r\nline two 😀\nline three\nlast';
    expect(run(['--db', db(), 'write', 'doc'], text).code).toBe(0);
    const chars = [...text];
    expect(run(['--db', db(), 'read', 'doc', '--head', '5']).stdout).toBe('line ');
    expect(run(['--db', db(), 'read', 'doc', '--tail', '4']).stdout).toBe('last');
    expect(run(['--db', db(), 'read', 'doc', '--range', '10:20']).stdout).toBe(chars.slice(10, 20).join(''));
    expect(run(['--db', db(), 'read', 'doc', '--offset', '19', '--limit', '3']).stdout).toBe(
      chars.slice(19, 22).join(''),
    );
    expect(run(['--db', db(), 'read', 'doc', '--lines', '1:2']).stdout).toBe('line one\r\nline two 😀\n');
    expect(run(['--db', db(), 'read', 'doc', '--lines', '-1']).stdout).toBe('last');
    expect(run(['--db', db(), 'read', 'doc', '--lines', '3:']).stdout).toBe('line three\nlast');
  });

  it('greps with line numbers, context and a maximum', () => {
    const log = Array.from({ length: 50 }, (_, index) =>
      index % 10 === 3 ? `ERROR ${index}` : `info ${index}`,
    ).join('\n');
    run(['--db', db(), 'write', 'log'], log);
    expect(run(['--db', db(), 'read', 'log', '--grep', 'ERROR']).stdout).toBe(
      '4:ERROR 3\n14:ERROR 13\n24:ERROR 23\n34:ERROR 33\n44:ERROR 43\n',
    );
    expect(run(['--db', db(), 'read', 'log', '--grep', 'error 1\\d', '-i', '--context', '1']).stdout).toBe(
      '13-info 12\n14:ERROR 13\n15-info 14\n',
    );
    const limited = run(['--db', db(), 'read', 'log', '--grep', 'ERROR', '--max', '2']);
    expect(limited.stdout).toBe('4:ERROR 3\n14:ERROR 13\n');
    expect(limited.stderr).toBe('5 matching lines of 50 lines (showing the first 2)\n');
  });

  it('edits, lists, searches, deletes, manages sessions, gc and stats', () => {
    const env = { SCRATCHPAD_DB: db(), SCRATCHPAD_SESSION: 'work' };
    run(['write', 'plan', '--pin'], '1. fix the parser\n2. test the parser', env);
    expect(run(['edit', 'plan', '--old', 'parser', '--new', 'lexer', '--all'], undefined, env).stdout).toBe(
      'replaced 2 occurrences in plan (lines 1, 2); version 2\n',
    );
    expect(run(['read', 'plan'], undefined, env).stdout).toBe('1. fix the lexer\n2. test the lexer');
    const list = run(['list'], undefined, env).stdout.split('\n');
    expect(list[0]).toMatch(/^NAME\s+KIND\s+SIZE\s+LINES\s+UPDATED\s+EXPIRES$/);
    expect(list[1]).toMatch(/^plan\s+text\*\s+34 B\s+2\s+\d{4}-\d\d-\d\dT[\d:]+Z\s+-$/);
    expect(run(['search', 'lexer'], undefined, env).stdout).toBe(
      'plan\t1. fix the [lexer] 2. test the [lexer]\n',
    );
    // A limit out of range is a usage error or the library's INVALID_ARGUMENT, never silently another limit.
    expect(run(['search', 'lexer', '--limit', '0'], undefined, env)).toMatchObject({ code: 2 });
    expect(run(['search', 'lexer', '--limit', '1001'], undefined, env).stderr).toMatch(
      /search limit must be a whole number from 1 to 1,000/,
    );
    const json = JSON.parse(run(['--json', 'list'], undefined, env).stdout);
    expect(json).toEqual({
      entries: [
        expect.objectContaining({ name: 'plan', session: 'work', pinned: true, version: 2, lines: 2 }),
      ],
    });
    run(['write', 'temp', '--ttl', '1'], 'gone soon', env);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1100); // let the one-second TTL pass
    // The plan's version before the edit (36 B) and the expired entry stay readable for readers a while.
    expect(run(['gc'], undefined, env).stdout).toMatch(
      /^removed work\/temp \(9 B, expired\)\ndeleted now: 1 entry \(its 9 B of content stays on disk for readers, below\); 0 abandoned partial writes\nfreed later: 2 contents of replaced or deleted entries \(45 B\), kept for readers until \d{4}-\d\d-\d\dT[\d:]+Z; a gc after that frees them\n$/,
    );
    expect(run(['sessions'], undefined, env).stdout).toMatch(/^SESSION\s+ENTRIES\s+SIZE\s+UPDATED\n/);
    expect(run(['sessions', 'show', 'work'], undefined, env).stdout).toBe('work: 1 entries, 34 B\n');
    expect(JSON.parse(run(['--json', 'stats'], undefined, env).stdout)).toMatchObject({
      backend: 'sqlite',
      entries: expect.any(Number),
    });
    expect(run(['delete', 'plan'], undefined, env).stdout).toBe('deleted plan (34 B)\n');
    expect(run(['sessions', 'delete', 'work'], undefined, env).stdout).toBe(
      'deleted session work: 0 entries, 0 B\n',
    );
    expect(run(['sessions', 'show', 'work'], undefined, env)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('No session "work"'),
    });
  });

  it('lists a page at a time: --limit, the next cursor on stderr or in --json, --cursor continues', () => {
    const env = { SCRATCHPAD_DB: join(home, 'paging.db'), SCRATCHPAD_SESSION: 'pages' };
    for (const name of ['c', 'a', 'b']) run(['write', name], 'x', env);
    const first = run(['list', '--limit', '2'], undefined, env);
    expect(first.code).toBe(0);
    expect(
      first.stdout
        .split('\n')
        .slice(1, 3)
        .map((line) => line.split(/\s+/)[0]),
    ).toEqual(['a', 'b']);
    const cursor = /^more entries: scratchpad list --limit 2 --cursor (\S+)\n$/.exec(first.stderr)?.[1];
    expect(cursor).toEqual(expect.any(String));
    const json = JSON.parse(run(['--json', 'list', '--limit', '2'], undefined, env).stdout);
    expect(json.nextCursor).toBe(cursor);
    const rest = run(['list', '--limit', '2', '--cursor', cursor as string], undefined, env);
    expect(rest.stdout.split('\n')[1]?.split(/\s+/)[0]).toBe('c');
    expect(rest.stderr).toBe('');
    const bad = run(['list', '--cursor', 'c'], undefined, env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Invalid list cursor');
    expect(bad.stderr).toContain('the cursor the previous page printed');
    const other = run(['list', '--cursor', cursor as string, '--order', 'createdAt'], undefined, env);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('ordered by name, not createdAt');
  });

  it('gc says what a delete left for readers and when a later gc frees it', () => {
    const env = { SCRATCHPAD_DB: join(home, 'gc.db') };
    expect(run(['write', 'big'], 'x'.repeat(3_000_000), env).code).toBe(0);
    const before = Date.now();
    expect(run(['delete', 'big'], undefined, env).stdout).toBe('deleted big (3.0 MB)\n');
    const gc = run(['gc'], undefined, env);
    expect(gc.stdout).toMatch(
      /^deleted now: 0 entries; 0 abandoned partial writes\nfreed later: 1 content of replaced or deleted entries \(3\.0 MB\), kept for readers until \d{4}-\d\d-\d\dT[\d:]+Z; a gc after that frees it\n$/,
    );
    const json = JSON.parse(run(['--json', 'gc'], undefined, env).stdout);
    expect(json).toMatchObject({
      removed: [],
      released: { contents: 0, bytes: 0 },
      held: { contents: 1, bytes: 3_000_000 },
    });
    expect(json.held.until).toBeGreaterThanOrEqual(before + 10 * 60 * 1000);
  });

  it('appends and keeps binary bytes exact', () => {
    run(['--db', db(), 'write', 'journal'], 'a\n');
    run(['--db', db(), 'write', 'journal', '--append'], 'b\n');
    expect(run(['--db', db(), 'read', 'journal']).stdout).toBe('a\nb\n');
    const bytes = Buffer.from([0, 255, 1, 254, 0x80, 0x81, 10]);
    expect(run(['--db', db(), 'write', 'blob'], bytes).stdout).toMatch(/created blob: 7 B binary/);
    expect(run(['--db', db(), 'read', 'blob']).raw).toEqual(bytes);
    expect(run(['--db', db(), 'read', 'blob', '--range', '1:3']).raw).toEqual(bytes.subarray(1, 3));
    expect(JSON.parse(run(['--db', db(), '--json', 'read', 'blob', '--head', '2']).stdout)).toMatchObject({
      encoding: 'base64',
      content: 'AP8=',
    });
  });

  it('streams a large stdin', () => {
    const big = `${'x'.repeat(999)}\n`;
    const input = big.repeat(20_000);
    expect(run(['--db', db(), 'write', 'big'], input).stdout).toMatch(
      /created big: 20,000,000 chars, 20,000 lines/,
    );
    expect(run(['--db', db(), 'read', 'big', '--lines', '19999:19999']).stdout).toBe(big);
    expect(run(['--db', db(), 'read', 'big']).stdout.length).toBe(20_000_000);
  });

  it('session notes: set, append, show', () => {
    const env = { SCRATCHPAD_DB: db() };
    expect(run(['notes'], undefined, env)).toMatchObject({ code: 0, stdout: '' });
    expect(run(['notes', 'set'], '## Plan\n1. Fix X\n', env).stdout).toMatch(
      /^Scratchpad updated \(\d+ tokens \/ 2000 budget\)\n$/,
    );
    expect(run(['notes', 'append'], '2. Test Y\n', env).code).toBe(0);
    expect(run(['notes', 'show'], undefined, env).stdout).toBe('## Plan\n1. Fix X\n2. Test Y\n');
    const rejected = run(
      ['notes', 'append', '--max-tokens', '12'],
      'a much longer addition that will not fit in twelve tokens at all',
      env,
    );
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toContain('Append would exceed 12 token budget (current: ');
  });

  it('uses the fs store when asked, with cat-able files', () => {
    const root = join(home, 'fs-store');
    mkdirSync(root);
    expect(run(['--store', `fs:${root}`, '--session', 'proj', 'write', 'plan'], 'cat me').code).toBe(0);
    expect(readFileSync(join(root, 'proj', 'plan'), 'utf8')).toBe('cat me');
    expect(
      run(['read', 'plan'], undefined, { SCRATCHPAD_STORE: `fs:${root}`, SCRATCHPAD_SESSION: 'proj' }).stdout,
    ).toBe('cat me');
  });

  it('exits 1 with a message for bad values and failed operations', () => {
    const cases: Array<[string[], string | undefined, RegExp]> = [
      [['--db', db(), 'read', 'missing'], undefined, /No entry "missing" in session "default"/],
      [['--db', db(), 'write', '../evil'], 'x', /Invalid name "..\/evil": use 1-128 characters/],
      [['--db', db(), '--session', 'a/b', 'list'], undefined, /Invalid session id/],
      [
        ['--db', db(), 'read', 'doc', '--range', '9999:10000'],
        undefined,
        /Start 9,999 is past the end: the entry has 36 chars/,
      ],
      [
        ['--db', db(), 'read', 'doc', '--lines', '99:100'],
        undefined,
        /Line 99 does not exist: the entry has 4 lines/,
      ],
      [['--db', db(), 'read', 'doc', '--grep', '(unclosed'], undefined, /Invalid regular expression/],
      [['--db', db(), 'read', 'doc', '--grep', 'a(?=b)'], undefined, /lookahead/],
      [['--db', db(), 'edit', 'doc', '--old', 'nowhere', '--new', 'x'], undefined, /does not occur/],
      [['--db', join(home, 'no', 'such', 'dir', 'x.db'), 'write', 'a'], 'x', /.+/],
      [['--db', home, 'list'], undefined, /.+/],
      [['--store', 'postgres://nobody@127.0.0.1:1/none', 'list'], undefined, /127\.0\.0\.1:1/],
    ];
    for (const [args, input, message] of cases) {
      const result = run(args, input);
      if (args.includes(join(home, 'no', 'such', 'dir', 'x.db'))) {
        // A missing parent directory is created: the write succeeds.
        expect(result.code, result.stderr).toBe(0);
        continue;
      }
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe('');
    }
  });

  it('shows an error one way: `Error (CODE): message hint`, or JSON under --json', () => {
    const plain = run(['--db', db(), 'read', 'nothing-here']);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/^scratchpad: Error \(ENTRY_NOT_FOUND\): .+\n$/);
    const json = run(['--db', db(), '--json', 'read', 'nothing-here']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toEqual({
      error: { code: 'ENTRY_NOT_FOUND', message: expect.any(String), hint: expect.any(String) },
    });
  });

  it('exits 2 for a malformed command line', () => {
    for (const args of [
      ['frobnicate'],
      ['read'],
      ['read', 'doc', '--bogus'],
      ['read', 'doc', '--head', 'abc'],
      ['read', 'doc', '--head', '1', '--tail', '1'],
      ['read', 'doc', '--context', '2'],
      ['read', 'doc', '--lines', '0:3'],
      ['mcp', '--preset', 'nope'],
      ['sessions', 'explode', 'x'],
    ]) {
      const result = run(['--db', db(), ...args]);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr.length).toBeGreaterThan(0);
    }
    expect(run(['--help']).code).toBe(0);
    expect(run(['--version']).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
