import { mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyDirectory } from './copy-directory.js';
import { LOCAL_KEY_NAME } from './key-store.js';
import { loadCatalog } from './load-catalog.js';
import { ensureShippedExecutors, SHIPPED_EXECUTOR_NAMES, shippedExecutorsDir } from './shipped-executors.js';
import { signExecutor } from './sign-executor.js';

let home: string;
let dataDir: string;
let keyDir: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'scratchpad-shipped-'));
  dataDir = join(home, 'data', 'scratchpad');
  keyDir = join(home, 'config', 'scratchpad', 'keys');
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

function statuses(result: Awaited<ReturnType<typeof ensureShippedExecutors>>): Record<string, string> {
  return Object.fromEntries(result.executors.map((report) => [report.name, report.status]));
}

describe('ensureShippedExecutors', () => {
  it('ships exactly the documented executors, unsigned in the package', async () => {
    const names = (await readdir(shippedExecutorsDir(), { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(names).toEqual([...SHIPPED_EXECUTOR_NAMES]);
    for (const name of names) {
      const manifest = JSON.parse(await readFile(join(shippedExecutorsDir(), name, 'manifest.json'), 'utf8'));
      expect(manifest.signature).toBeUndefined();
    }
  });

  it('installs and signs on first use, then is idempotent; the catalog loads all five', async () => {
    const first = await ensureShippedExecutors({ dataDir, keyDir });
    expect(first.keyCreated).toBe(true);
    expect(first.executorsDir).toBe(join(dataDir, 'executors'));
    expect(Object.values(statuses(first))).toEqual(Array(5).fill('installed'));
    const catalog = await loadCatalog({ dirs: [first.executorsDir], trustedKeys: first.trustedKeys });
    expect(catalog.executors.map((executor) => executor.name)).toEqual([...SHIPPED_EXECUTOR_NAMES]);
    expect(catalog.discarded).toEqual([]);
    expect(catalog.executors.find((executor) => executor.name === 'shell_exec')?.capabilities).toEqual([
      'code:exec',
    ]);

    const second = await ensureShippedExecutors({ dataDir, keyDir });
    expect(second.keyCreated).toBe(false);
    expect(second.key.keyId).toBe(first.key.keyId);
    expect(Object.values(statuses(second))).toEqual(Array(5).fill('unchanged'));
    expect((await readdir(second.executorsDir)).sort()).toEqual([...SHIPPED_EXECUTOR_NAMES]);
  });

  it('defaults to the XDG folders', async () => {
    const env = {
      XDG_DATA_HOME: join(home, 'xdg-data'),
      XDG_CONFIG_HOME: join(home, 'xdg-config'),
      HOME: home,
    };
    const result = await ensureShippedExecutors({ env });
    expect(result.executorsDir).toBe(join(home, 'xdg-data', 'scratchpad', 'executors'));
    expect(
      await readFile(join(home, 'xdg-config', 'scratchpad', 'keys', `${LOCAL_KEY_NAME}.pub`), 'utf8'),
    ).toBe(result.key.publicKeyPem);
  });

  it('detects tampering after signing, does not overwrite the evidence, and the loader discards it', async () => {
    const first = await ensureShippedExecutors({ dataDir, keyDir });
    const code = join(first.executorsDir, 'shell_exec', 'index.mjs');
    await writeFile(code, `${await readFile(code, 'utf8')}\n// injected\n`);
    const second = await ensureShippedExecutors({ dataDir, keyDir });
    const report = second.executors.find((item) => item.name === 'shell_exec');
    expect(report?.status).toBe('tampered');
    expect(report?.reason).toMatch(/code digest mismatch/);
    expect(await readFile(code, 'utf8')).toMatch(/\/\/ injected/);
    const catalog = await loadCatalog({ dirs: [second.executorsDir], trustedKeys: second.trustedKeys });
    expect(catalog.executors.map((executor) => executor.name)).not.toContain('shell_exec');
    expect(catalog.discarded).toEqual([
      {
        dir: join(second.executorsDir, 'shell_exec'),
        name: 'shell_exec',
        reason: expect.stringMatching(/code digest mismatch/),
      },
    ]);
  });

  it('re-signs an unmodified copy when the local key was regenerated', async () => {
    await ensureShippedExecutors({ dataDir, keyDir });
    await unlink(join(keyDir, `${LOCAL_KEY_NAME}.key`));
    await unlink(join(keyDir, `${LOCAL_KEY_NAME}.pub`));
    const result = await ensureShippedExecutors({ dataDir, keyDir });
    expect(result.keyCreated).toBe(true);
    expect(Object.values(statuses(result))).toEqual(Array(5).fill('resigned'));
    expect(result.executors[0]?.reason).toMatch(/untrusted key/);
    const catalog = await loadCatalog({ dirs: [result.executorsDir], trustedKeys: result.trustedKeys });
    expect(catalog.executors).toHaveLength(5);
  });

  it('upgrades a verified older version and keeps the old copy; keeps a signed local change of the same version', async () => {
    const source = join(home, 'source');
    await copyDirectory(shippedExecutorsDir(), source);
    await ensureShippedExecutors({ dataDir, keyDir, sourceDir: source });

    const readerManifest = join(source, 'fs_read', 'manifest.json');
    const manifest = JSON.parse(await readFile(readerManifest, 'utf8'));
    const shippedVersion: string = manifest.version;
    manifest.version = '9.9.9';
    await writeFile(readerManifest, JSON.stringify(manifest, null, 2));

    const listerCode = join(dataDir, 'executors', 'fs_list', 'index.mjs');
    await writeFile(listerCode, `${await readFile(listerCode, 'utf8')}\n// reviewed local change\n`);
    const first = await ensureShippedExecutors({ dataDir, keyDir });
    await signExecutor(join(dataDir, 'executors', 'fs_list'), first.key);

    const result = await ensureShippedExecutors({ dataDir, keyDir, sourceDir: source });
    const byName = Object.fromEntries(result.executors.map((report) => [report.name, report]));
    expect(byName.fs_read?.status).toBe('upgraded');
    expect(byName.fs_list?.status).toBe('kept');
    const backups = await readdir(join(dataDir, 'executors', '.replaced'));
    expect(backups).toHaveLength(1);
    expect(backups[0]?.startsWith(`fs_read-${shippedVersion}-`)).toBe(true);
    const installed = JSON.parse(
      await readFile(join(dataDir, 'executors', 'fs_read', 'manifest.json'), 'utf8'),
    );
    expect(installed.version).toBe('9.9.9');
    const catalog = await loadCatalog({ dirs: [result.executorsDir], trustedKeys: result.trustedKeys });
    expect(catalog.executors).toHaveLength(5);
  });

  it('survives two processes installing at the same time', async () => {
    const results = await Promise.all([
      ensureShippedExecutors({ dataDir, keyDir }),
      ensureShippedExecutors({ dataDir, keyDir }),
    ]);
    expect(results[0].key.keyId).toBe(results[1].key.keyId);
    const catalog = await loadCatalog({
      dirs: [results[0].executorsDir],
      trustedKeys: results[0].trustedKeys,
    });
    expect(catalog.executors).toHaveLength(5);
    expect((await readdir(results[0].executorsDir)).sort()).toEqual([...SHIPPED_EXECUTOR_NAMES]);
  });
});
