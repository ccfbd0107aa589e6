import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScratchpadError } from 'llm-scratchpad';
import { denialObservation } from './denial-observation.js';
import { createVaglio, type VaglioConfig } from './vaglio.js';

let logDir: string;
const fixedNow = () => new Date('2026-04-27T10:11:12.000Z');

beforeEach(() => {
  logDir = mkdtempSync(join(tmpdir(), 'scratchpad-vaglio-'));
});
afterEach(() => {
  rmSync(logDir, { recursive: true, force: true });
});

function vaglio(config: VaglioConfig = {}) {
  return createVaglio({
    logDir,
    now: fixedNow,
    env: {},
    home: '/home/alice',
    user: 'alice',
    cwd: '/home/alice',
    ...config,
  });
}

function logLines(): Record<string, unknown>[] {
  return readFileSync(join(logDir, '2026-04.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

describe('createVaglio', () => {
  it('approves a plain action with the base score', () => {
    expect(
      vaglio().judge({ executor: 'fs_read', capabilities: ['fs:read'], args: { path: 'notes.md' } }),
    ).toEqual({
      approved: true,
      reason: 'judge: alignment 0.70 >= threshold 0.30',
      score: 0.7,
      blocked_by: null,
      judge_kind: 'rules',
      ts: '2026-04-27T10:11:12.000Z',
    });
  });

  it('blocks with the guard, without a score, naming the argument and the rule', () => {
    const verdict = vaglio().judge({
      executor: 'fs_read',
      capabilities: ['fs:read'],
      args: { path: '~/.ssh/id_rsa' },
      intent: 'fs_read my key',
    });
    expect(verdict).toMatchObject({
      approved: false,
      score: null,
      blocked_by: 'guard',
      judge_kind: 'rules',
      rule: 'ssh',
      reason: 'guard: argument "path" mentions a protected path (~/.ssh)',
    });
  });

  it('blocks destructive commands only for code:exec', () => {
    const shell = vaglio().judge({
      executor: 'shell_exec',
      capabilities: ['code:exec'],
      args: { command: 'sudo rm -rf ~' },
    });
    expect(shell).toMatchObject({ approved: false, blocked_by: 'guard', rule: 'recursive-delete' });
    expect(shell.reason).toBe(
      'guard: argument "command" holds a destructive command (recursive delete of /, a system folder or the home folder)',
    );
    const note = vaglio().judge({
      executor: 'fs_write',
      capabilities: ['fs:write'],
      args: { path: 'x.md', content: 'sudo rm -rf ~' },
    });
    expect(note.approved).toBe(true);
  });

  it('blocks with the judge below the threshold, and the threshold comes from the environment', () => {
    const both = { executor: 'fs_read', args: { 'path;x': '../notes' } };
    expect(vaglio().judge(both)).toMatchObject({ approved: false, blocked_by: 'judge', score: 0.2 });
    expect(vaglio().judge(both).reason).toMatch(
      /^judge: alignment 0\.20 below threshold 0\.30: '\.\.' in a path argument/,
    );
    const traversal = { executor: 'fs_read', args: { path: '../notes' } };
    expect(vaglio().judge(traversal).approved).toBe(true);
    const strict = vaglio({ env: { SCRATCHPAD_JUDGE_THRESHOLD: '0.5' } });
    expect(strict.threshold).toBe(0.5);
    expect(strict.judge(traversal)).toMatchObject({ approved: false, blocked_by: 'judge', score: 0.45 });
    expect(vaglio({ threshold: 0, env: { SCRATCHPAD_JUDGE_THRESHOLD: '0.9' } }).judge(both).approved).toBe(
      true,
    );
  });

  it('rejects an invalid threshold', () => {
    for (const value of ['abc', '1.5', '-0.1']) {
      expect(() => vaglio({ env: { SCRATCHPAD_JUDGE_THRESHOLD: value } })).toThrow(ScratchpadError);
    }
    expect(() => vaglio({ threshold: 2 })).toThrow(/\[0, 1\]/);
  });

  it('logs one line per verdict in the monthly file, with argument keys and never their values', () => {
    const v = vaglio();
    v.judge({
      executor: 'fs_write',
      capabilities: ['fs:write'],
      args: {
        path: '/tmp/VALUE-PATH-1.txt',
        content: 'VALUE-CONTENT-2',
        options: { nested: 'VALUE-NESTED-3' },
      },
      intent: 'VALUE-INTENT-4 please',
    });
    v.judge({
      executor: 'fs_read',
      capabilities: ['fs:read'],
      args: { path: '/etc/shadow', note: 'VALUE-NOTE-5' },
    });
    v.judge({
      executor: 'shell_exec',
      capabilities: ['code:exec'],
      args: { command: 'rm -rf / # VALUE-COMMAND-6' },
    });
    v.judge({ executor: 'fs_read', args: { 'weird;key': '../VALUE-TRAVERSAL-7' } });
    const raw = readFileSync(join(logDir, '2026-04.jsonl'), 'utf8');
    expect(raw).not.toMatch(/VALUE-/);
    expect(raw).not.toContain('/etc/shadow');
    expect(raw).not.toContain('/tmp');
    const lines = logLines();
    expect(lines).toHaveLength(4);
    expect(lines[0]).toEqual({
      ts: '2026-04-27T10:11:12.000Z',
      executor: 'fs_write',
      capabilities: ['fs:write'],
      arg_keys: ['path', 'content', 'options'],
      approved: true,
      score: 0.7,
      blocked_by: null,
      judge_kind: 'rules',
      rule: null,
      reason: 'judge: alignment 0.70 >= threshold 0.30',
    });
    expect(lines.map((line) => line.blocked_by)).toEqual([null, 'guard', 'guard', 'judge']);
    expect(lines[3]?.arg_keys).toEqual(['weird;key']);
    expect(readdirSync(logDir)).toEqual(['2026-04.jsonl']);
    expect(statSync(join(logDir, '2026-04.jsonl')).mode & 0o777).toBe(0o600);
  });

  it('writes to $XDG_DATA_HOME/scratchpad/vaglio by default, and not at all with logDir false', () => {
    const data = join(logDir, 'xdg');
    createVaglio({ env: { XDG_DATA_HOME: data }, now: fixedNow }).judge({ executor: 'fs_read', args: {} });
    expect(readdirSync(join(data, 'scratchpad', 'vaglio'))).toEqual(['2026-04.jsonl']);
    const silent = join(logDir, 'silent');
    createVaglio({ env: { XDG_DATA_HOME: silent }, logDir: false }).judge({ executor: 'fs_read', args: {} });
    expect(() => readdirSync(silent)).toThrow();
  });

  it('still returns the verdict when the log cannot be written', () => {
    const blocker = join(logDir, 'file-not-folder');
    writeFileSync(blocker, '');
    const errors: unknown[] = [];
    const verdict = createVaglio({
      logDir: blocker,
      env: {},
      onLogError: (error) => errors.push(error),
    }).judge({
      executor: 'fs_read',
      args: { path: '~/.ssh/id_rsa' },
    });
    expect(verdict.approved).toBe(false);
    expect(errors).toHaveLength(1);
  });
});

describe('denialObservation', () => {
  it('tells the model a guard denial is final', () => {
    const verdict = vaglio().judge({ executor: 'fs_read', args: { path: '/etc/shadow' } });
    const observation = denialObservation(verdict, 'fs_read');
    expect(observation.ok).toBe(false);
    expect(observation.error).toMatch(
      /^Action refused by the vaglio \(guard, non-negotiable\): fs_read was not run\./,
    );
    expect(observation.error).toMatch(/Do not retry it with another spelling/);
    expect(observation.metadata).toEqual({
      vaglio: { blocked_by: 'guard', score: null, judge_kind: 'rules', rule: 'etc-accounts' },
    });
  });

  it('tells the model how to restate a judge denial', () => {
    const verdict = vaglio().judge({ executor: 'fs_read', args: { 'a-b': '../x' } });
    const observation = denialObservation(verdict, 'fs_read');
    expect(observation.error).toMatch(
      /^Action refused by the vaglio \(judge\): fs_read was not run\. judge: alignment 0\.20/,
    );
    expect(observation.error).toMatch(/plain argument names/);
    expect(observation.metadata).toEqual({
      vaglio: { blocked_by: 'judge', score: 0.2, judge_kind: 'rules', rule: null },
    });
  });
});

describe('hostile argument sizes', () => {
  // Each of these was quadratic at some point (path normalization, brace groups, repeated rm, cd chains,
  // backtracking regular expressions): the suite's timeout catches a regression.
  const size = 200_000;
  it.each([
    ['one long word', 'A'.repeat(size)],
    ['thousands of ..', '../'.repeat(size / 3)],
    ['unmatched braces', '{'.repeat(size)],
    ['brace lists', '{a,'.repeat(size / 3)],
    ['repeated rm', 'rm -rf x '.repeat(size / 9)],
    ['cd chain', 'cd a; '.repeat(size / 6)],
    ['function definitions', 'f(){ '.repeat(size / 5)],
    ['substitutions', '$('.repeat(size / 2)],
    ['assignments', 'A=x; '.repeat(size / 5)],
    ['chained assignments', 'A=$A/x; '.repeat(size / 8)],
    ['unclosed braced assignments', 'A=${'.repeat(size / 4)],
    ['variables in paths', 'cat $A/x '.repeat(size / 9)],
  ])('judges %s', (name, command) => {
    const verdict = vaglio({ logDir: false }).judge({
      executor: 'shell_exec',
      capabilities: ['code:exec'],
      args: { command },
    });
    // Text built at run time is denied (the guard cannot read it); the rest is plain and allowed.
    const denied = ['substitutions', 'chained assignments', 'variables in paths'];
    expect(verdict.approved).toBe(!denied.includes(name));
  });
});
