import { describe, expect, it } from 'vitest';
import { MemoryToolError } from './memory-errors.js';
import { ancestorDirectories, isWithin, parentPath, resolveMemoryPath, storedForm } from './memory-path.js';

function failure(input: string): string {
  try {
    resolveMemoryPath(input);
  } catch (error) {
    if (error instanceof MemoryToolError) return error.message;
    throw error;
  }
  throw new Error(`${JSON.stringify(input)} was accepted`);
}

describe('resolveMemoryPath', () => {
  it('normalizes like path.join + path.resolve under the root', () => {
    const cases: Array<[string, string]> = [
      ['/memories', '/memories'],
      ['/memories/', '/memories'],
      ['/memories/.', '/memories'],
      ['/memories/a/..', '/memories'],
      ['/memories/a', '/memories/a'],
      ['/memories/a/', '/memories/a'],
      ['/memories//a//b/', '/memories/a/b'],
      ['/memories/a/./b', '/memories/a/b'],
      ['/memories/a/../b', '/memories/b'],
      ['/memories/../memories/a', '/memories/a'],
      ['/memoriesX/a', '/memories/X/a'],
      ['/memories_backup', '/memories/_backup'],
      ['/memories/..%2f', '/memories/..%2f'],
      ['/memories\\..\\etc', '/memories/\\..\\etc'],
      ['/memories/...', '/memories/...'],
    ];
    for (const [input, path] of cases) expect(resolveMemoryPath(input).path, input).toBe(path);
    expect(resolveMemoryPath('/memories/a/b/c').segments).toEqual(['a', 'b', 'c']);
  });

  it('rejects paths outside /memories with the SDK messages', () => {
    expect(failure('/etc/passwd')).toBe('Path must start with /memories, got: /etc/passwd');
    expect(failure('memories/a')).toBe('Path must start with /memories, got: memories/a');
    expect(failure('')).toBe('Path must start with /memories, got: ');
    expect(failure('/Memories')).toBe('Path must start with /memories, got: /Memories');
    for (const input of [
      '/memories/..',
      '/memories/../x',
      '/memories/a/../../x',
      '/memories/../memoriesX',
      '/memories/../../x',
    ]) {
      expect(failure(input)).toBe(`Path ${input} would escape /memories directory`);
    }
  });

  it('treats climbing above the parent of /memories as an escape, even when it comes back down', () => {
    expect(failure('/memories/../../tmp/memories/a')).toBe(
      'Path /memories/../../tmp/memories/a would escape /memories directory',
    );
  });

  it("reports a NUL byte with Node's message, showing the virtual path", () => {
    expect(failure('/memories/a\0b')).toBe(
      "The argument 'path' must be a string, Uint8Array, or URL without null bytes. Received '/memories/a\\x00b'",
    );
    expect(failure(`/memories/${'x'.repeat(200)}\0`)).toMatch(/Received '\/memories\/x+\.\.\.$/);
  });
});

describe('path helpers', () => {
  it('walks parents and ancestors', () => {
    expect(parentPath('/memories/a/b')).toBe('/memories/a');
    expect(parentPath('/memories/a')).toBe('/memories');
    expect(parentPath('/memories')).toBe('/memories');
    expect(ancestorDirectories('/memories/a/b/c')).toEqual(['/memories/a', '/memories/a/b']);
    expect(ancestorDirectories('/memories/a')).toEqual([]);
    expect(isWithin('/memories/a/b', '/memories/a')).toBe(true);
    expect(isWithin('/memories/ab', '/memories/a')).toBe(false);
  });

  it('stores lone surrogates as U+FFFD and keeps pairs', () => {
    expect(storedForm('/memories/a\ud800b')).toBe('/memories/a\ufffdb');
    expect(storedForm('/memories/🌍')).toBe('/memories/🌍');
  });
});
