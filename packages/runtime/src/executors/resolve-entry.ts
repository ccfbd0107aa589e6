import { join } from 'node:path';

/**
 * The argv to spawn for a manifest `entry`: `node` as first word becomes this Node binary, words starting with
 * `./` become paths inside `codeDir` (the executor's code folder, or the verified copy of it that runs).
 */
export function resolveEntry(entry: readonly string[], codeDir: string): string[] {
  return entry.map((word, index) => {
    if (index === 0 && word === 'node') return process.execPath;
    if (word.startsWith('./')) return join(codeDir, word);
    return word;
  });
}
