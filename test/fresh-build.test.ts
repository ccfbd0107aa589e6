import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { staleModules } from './setup/fresh-build.js';

describe('staleModules', () => {
  it('names a module whose build is missing or older, and skips tests, declarations and built twins that are newer', () => {
    const root = mkdtempSync(join(tmpdir(), 'fresh-build-'));
    const src = join(root, 'src');
    const dist = join(root, 'dist');
    mkdirSync(join(src, 'grep'), { recursive: true });
    mkdirSync(join(dist, 'grep'), { recursive: true });
    const at = (path: string, seconds: number) => {
      writeFileSync(path, '');
      utimesSync(path, seconds, seconds);
    };
    at(join(src, 'grep', 'worker.ts'), 2_000);
    at(join(dist, 'grep', 'worker.js'), 1_000);
    at(join(src, 'fresh.ts'), 1_000);
    at(join(dist, 'fresh.js'), 2_000);
    at(join(src, 'missing.ts'), 1_000);
    at(join(src, 'fresh.test.ts'), 3_000);
    at(join(src, 'types.d.ts'), 3_000);
    expect(staleModules(src, dist).sort()).toEqual([join(src, 'grep', 'worker.ts'), join(src, 'missing.ts')]);
  });
});
