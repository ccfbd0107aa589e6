import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { workerScript } from './worker-script.js';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('workerScript', () => {
  it('is the sibling script in the build, and the dist/ twin of a TypeScript source once built', () => {
    root = mkdtempSync(join(tmpdir(), 'scratchpad-worker-script-'));
    const built = pathToFileURL(join(root, 'dist', 'stores', 'x', 'module.js')).href;
    expect(workerScript(built, './worker.js')?.pathname).toBe(
      pathToFileURL(join(root, 'dist', 'stores', 'x', 'worker.js')).pathname,
    );
    const source = pathToFileURL(join(root, 'src', 'stores', 'x', 'module.ts')).href;
    expect(workerScript(source, './worker.js')).toBeUndefined();
    mkdirSync(join(root, 'dist', 'stores', 'x'), { recursive: true });
    writeFileSync(join(root, 'dist', 'stores', 'x', 'worker.js'), '');
    expect(workerScript(source, './worker.js')?.pathname).toBe(
      pathToFileURL(join(root, 'dist', 'stores', 'x', 'worker.js')).pathname,
    );
  });
});
