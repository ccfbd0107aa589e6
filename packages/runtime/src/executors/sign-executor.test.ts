import { mkdir, mkdtemp, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScratchpadError } from 'llm-scratchpad';
import { loadCatalog } from './load-catalog.js';
import { signExecutor } from './sign-executor.js';
import { generateSigningKey, type SigningKey, toTrustedKey } from './signing-key.js';
import { verifyExecutor } from './verify-executor.js';

let root: string;
let key: SigningKey;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'scratchpad-sign-'));
  key = generateSigningKey();
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function writeExecutor(name: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, 'lib'), { recursive: true });
  const manifest = {
    name,
    description: `The ${name} test executor.`,
    affinity: ['test'],
    capabilities: ['fs:read'],
    args: { type: 'object', properties: { path: { type: 'string' } } },
    entry: ['node', './index.mjs'],
    ...overrides,
  };
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  await writeFile(
    join(dir, 'index.mjs'),
    "import './lib/helper.mjs';\nprocess.stdout.write('{\"ok\":true}');\n",
  );
  await writeFile(join(dir, 'lib', 'helper.mjs'), 'export const helper = 1;\n');
  return dir;
}

describe('signExecutor / verifyExecutor', () => {
  it('round-trips: a signed executor verifies with the signing key trusted', async () => {
    const dir = await writeExecutor('round_trip');
    const signed = await signExecutor(dir, key);
    expect(signed.keyId).toBe(key.keyId);
    expect(signed.codeDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const result = await verifyExecutor(dir, [toTrustedKey(key)]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.executor.name).toBe('round_trip');
    expect(result.executor.dir).toBe(dir);
    expect(result.executor.keyId).toBe(key.keyId);
    expect(result.executor.codeDigest).toBe(signed.codeDigest);
    expect(result.manifest.signature?.algorithm).toBe('ed25519');
  });

  it('still verifies when the manifest is re-serialized with other key order and spacing', async () => {
    const dir = await writeExecutor('reordered');
    await signExecutor(dir, key);
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const reordered = Object.fromEntries(Object.entries(manifest).reverse());
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(reordered));
    expect((await verifyExecutor(dir, [toTrustedKey(key)])).ok).toBe(true);
  });

  it('detects code modified after signing (digest mismatch), in the entry file and in a nested file', async () => {
    const dir = await writeExecutor('tampered_code');
    await signExecutor(dir, key);
    await writeFile(join(dir, 'lib', 'helper.mjs'), 'export const helper = 2;\n');
    const nested = await verifyExecutor(dir, [toTrustedKey(key)]);
    expect(nested).toMatchObject({ ok: false, name: 'tampered_code' });
    if (!nested.ok) expect(nested.reason).toMatch(/code digest mismatch/);

    const other = await writeExecutor('added_file');
    await signExecutor(other, key);
    await writeFile(join(other, 'extra.mjs'), 'evil();\n');
    const added = await verifyExecutor(other, [toTrustedKey(key)]);
    expect(added.ok).toBe(false);
    if (!added.ok) expect(added.reason).toMatch(/code digest mismatch/);
  });

  it('detects a manifest modified after signing (signature)', async () => {
    const dir = await writeExecutor('tampered_manifest');
    await signExecutor(dir, key);
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    manifest.capabilities = ['code:exec'];
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
    const result = await verifyExecutor(dir, [toTrustedKey(key)]);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/signature does not verify/);
  });

  it('detects a swapped code digest in the signature block', async () => {
    const dir = await writeExecutor('swapped_digest');
    await signExecutor(dir, key);
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    manifest.signature.code_digest = `sha256:${'0'.repeat(64)}`;
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
    const result = await verifyExecutor(dir, [toTrustedKey(key)]);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/signature does not verify/);
  });

  it('refuses an executor signed by a key that is not trusted', async () => {
    const dir = await writeExecutor('untrusted');
    await signExecutor(dir, generateSigningKey());
    const result = await verifyExecutor(dir, [toTrustedKey(key)]);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/untrusted key [0-9a-f]{16}/);
  });

  it('refuses a key id that claims a trusted key but carries another key signature', async () => {
    const dir = await writeExecutor('forged_key_id');
    await signExecutor(dir, generateSigningKey());
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    manifest.signature.key_id = key.keyId;
    await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
    const result = await verifyExecutor(dir, [toTrustedKey(key)]);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/signature does not verify/);
  });

  it('reports an unsigned executor, a missing manifest, bad JSON, an invalid manifest and a missing entry file', async () => {
    const trusted = [toTrustedKey(key)];
    const unsigned = await writeExecutor('unsigned');
    expect(await verifyExecutor(unsigned, trusted)).toMatchObject({
      ok: false,
      name: 'unsigned',
      reason: expect.stringMatching(/^unsigned/),
    });

    const empty = join(root, 'empty');
    await mkdir(empty);
    expect(await verifyExecutor(empty, trusted)).toEqual({ ok: false, reason: 'missing manifest.json' });

    const badJson = await writeExecutor('bad_json');
    await writeFile(join(badJson, 'manifest.json'), '{ "name": ');
    expect(await verifyExecutor(badJson, trusted)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not valid JSON/),
    });

    const invalid = await writeExecutor('invalid', { entry: [], afinity: ['typo'] });
    const invalidResult = await verifyExecutor(invalid, trusted);
    expect(invalidResult).toMatchObject({ ok: false, name: 'invalid' });
    if (!invalidResult.ok) {
      expect(invalidResult.reason).toMatch(/entry/);
      expect(invalidResult.reason).toMatch(/afinity/);
    }

    const missingEntry = await writeExecutor('missing_entry');
    await signExecutor(missingEntry, key);
    await unlink(join(missingEntry, 'index.mjs'));
    expect(await verifyExecutor(missingEntry, trusted)).toMatchObject({
      ok: false,
      reason: 'entry file ./index.mjs is missing',
    });
  });

  it('refuses symbolic links inside an executor folder, when signing and when verifying', async () => {
    const dir = await writeExecutor('with_link');
    await symlink('/etc/hostname', join(dir, 'link'));
    await expect(signExecutor(dir, key)).rejects.toSatisfy((error) =>
      ScratchpadError.hasCode(error, 'EXECUTOR_INVALID'),
    );
    await unlink(join(dir, 'link'));
    await signExecutor(dir, key);
    await symlink('/etc/hostname', join(dir, 'link'));
    const result = await verifyExecutor(dir, [toTrustedKey(key)]);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/symbolic link/);
  });

  it('throws EXECUTOR_INVALID with the reason when asked to sign a folder without a manifest', async () => {
    const dir = join(root, 'nothing');
    await mkdir(dir);
    await expect(signExecutor(dir, key)).rejects.toThrow(/missing manifest.json/);
  });
});

describe('loadCatalog', () => {
  it('keeps verified executors and reports every discarded one with its reason', async () => {
    const trusted = [toTrustedKey(key)];
    for (const name of ['alpha', 'beta', 'tampered', 'untrusted']) await writeExecutor(name);
    await writeExecutor('unsigned');
    await mkdir(join(root, 'no_manifest'));
    await mkdir(join(root, '.hidden'));
    await signExecutor(join(root, 'alpha'), key);
    await signExecutor(join(root, 'beta'), key);
    await signExecutor(join(root, 'tampered'), key);
    await writeFile(join(root, 'tampered', 'index.mjs'), 'evil();\n');
    await signExecutor(join(root, 'untrusted'), generateSigningKey());
    await symlink(join(root, 'alpha'), join(root, 'linked'));

    const second = await mkdtemp(join(tmpdir(), 'scratchpad-sign-second-'));
    try {
      const duplicate = join(second, 'alpha_copy');
      await mkdir(duplicate);
      await writeFile(join(duplicate, 'index.mjs'), 'process.stdout.write("{}");\n');
      await writeFile(
        join(duplicate, 'manifest.json'),
        JSON.stringify({
          name: 'alpha',
          description: 'x',
          affinity: [],
          capabilities: [],
          args: { type: 'object' },
          entry: ['node', './index.mjs'],
        }),
      );
      await signExecutor(duplicate, key);

      const catalog = await loadCatalog({
        dirs: [root, second, join(root, 'does-not-exist')],
        trustedKeys: trusted,
      });
      expect(catalog.executors.map((executor) => executor.name)).toEqual(['alpha', 'beta']);
      const reasons = Object.fromEntries(
        catalog.discarded.map((item) => [item.dir.split('/').pop(), item.reason]),
      );
      expect(Object.keys(reasons).sort()).toEqual([
        'alpha_copy',
        'linked',
        'no_manifest',
        'tampered',
        'unsigned',
        'untrusted',
      ]);
      expect(reasons.tampered).toMatch(/code digest mismatch/);
      expect(reasons.untrusted).toMatch(/untrusted key/);
      expect(reasons.unsigned).toMatch(/^unsigned/);
      expect(reasons.no_manifest).toBe('missing manifest.json');
      expect(reasons.linked).toMatch(/symbolic link/);
      expect(reasons.alpha_copy).toMatch(/duplicate name alpha/);
      expect(catalog.discarded.find((item) => item.dir.endsWith('tampered'))?.name).toBe('tampered');
    } finally {
      await rm(second, { recursive: true, force: true });
    }
  });

  it('accepts a single executor folder as a catalog dir', async () => {
    const dir = await writeExecutor('single');
    await signExecutor(dir, key);
    const catalog = await loadCatalog({ dirs: [dir], trustedKeys: [toTrustedKey(key)] });
    expect(catalog.executors.map((executor) => executor.name)).toEqual(['single']);
    expect(catalog.discarded).toEqual([]);
  });
});
