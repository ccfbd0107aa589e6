import { describe, expect, it } from 'vitest';
import { scoreAlignment } from './rules-judge.js';

const score = (args: unknown, intent?: string, executor = 'fs_read') =>
  scoreAlignment({ executor, args, ...(intent === undefined ? {} : { intent }) }).score;

describe('scoreAlignment', () => {
  it.each([
    ['plain action', { path: '/tmp/notes.txt' }, undefined, 0.7],
    ['intent names the executor', { path: '/tmp/notes.txt' }, 'use fs_read on /tmp/notes.txt', 0.85],
    ['intent names it in words', { path: '/tmp/notes.txt' }, 'please FS READ the notes', 0.85],
    ['intent only shares a word', { path: '/tmp/notes.txt' }, 'read my notes', 0.7],
    ['.. in a path', { path: '../secrets/notes.txt' }, undefined, 0.45],
    ['.. in a nested path', { files: [{ path: 'a/../../b' }] }, undefined, 0.45],
    ['URL-encoded ..', { path: '%2e%2e/notes' }, undefined, 0.45],
    ['.. inside a command', { command: 'cat ../x' }, undefined, 0.45],
    ['dots that are not traversal', { path: 'v1..v2.diff', text: 'wait...' }, undefined, 0.7],
    ['key with a dash', { 'max-bytes': 10, path: 'x' }, undefined, 0.45],
    ['key with a semicolon, nested', { options: { 'path;rm': 'x' } }, undefined, 0.45],
    ['snake_case keys are plain', { max_bytes: 10, tail_bytes: 5 }, undefined, 0.7],
    ['both penalties', { 'path/': '../x' }, undefined, 0.2],
    ['both penalties with the bonus', { 'path/': '../x' }, 'run fs_read', 0.35],
  ])('%s', (_name, args, intent, expected) => {
    expect(score(args, intent)).toBe(expected);
  });

  it('explains each adjustment with a constant label', () => {
    const result = scoreAlignment({
      executor: 'fs_read',
      args: { 'bad key': '../SECRET-VALUE' },
      intent: 'fs_read it',
    });
    expect(result.adjustments.map((item) => item.delta)).toEqual([0.15, -0.25, -0.25]);
    expect(JSON.stringify(result.adjustments)).not.toContain('SECRET-VALUE');
  });
});
