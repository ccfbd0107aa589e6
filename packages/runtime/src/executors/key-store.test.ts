import { chmod, mkdtemp, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScratchpadError } from 'llm-scratchpad';
import { loadOrCreateSigningKey, loadSigningKey, loadTrustedKeys, saveSigningKey } from './key-store.js';
import { generateSigningKey, keyIdOf } from './signing-key.js';

let keyDir: string;

beforeEach(async () => {
  keyDir = join(await mkdtemp(join(tmpdir(), 'scratchpad-keys-')), 'keys');
});
afterEach(async () => {
  await rm(join(keyDir, '..'), { recursive: true, force: true });
});

describe('key store', () => {
  it('saves the private key with mode 0600 in a 0700 folder and loads the same key back', async () => {
    const key = generateSigningKey();
    await saveSigningKey(keyDir, key);
    expect((await stat(join(keyDir, 'executor-signing.key'))).mode & 0o777).toBe(0o600);
    expect((await stat(keyDir)).mode & 0o777).toBe(0o700);
    expect(await loadSigningKey(keyDir)).toEqual(key);
    expect(keyIdOf(key.publicKeyPem)).toBe(key.keyId);
    expect(await loadTrustedKeys(keyDir)).toEqual([{ keyId: key.keyId, publicKeyPem: key.publicKeyPem }]);
  });

  it('refuses to overwrite a key unless asked, and overwrites when asked', async () => {
    await saveSigningKey(keyDir, generateSigningKey());
    const replacement = generateSigningKey();
    await expect(saveSigningKey(keyDir, replacement)).rejects.toSatisfy((error) =>
      ScratchpadError.hasCode(error, 'ENTRY_EXISTS'),
    );
    await saveSigningKey(keyDir, replacement, { overwrite: true });
    expect((await loadSigningKey(keyDir))?.keyId).toBe(replacement.keyId);
  });

  it('refuses a private key readable by others', async () => {
    await saveSigningKey(keyDir, generateSigningKey());
    await chmod(join(keyDir, 'executor-signing.key'), 0o644);
    await expect(loadSigningKey(keyDir)).rejects.toSatisfy(
      (error) => ScratchpadError.hasCode(error, 'CONFIG_INVALID') && /chmod 600/.test(error.hint ?? ''),
    );
  });

  it('rewrites a missing public key file from the private key', async () => {
    const key = generateSigningKey();
    await saveSigningKey(keyDir, key);
    await unlink(join(keyDir, 'executor-signing.pub'));
    await loadSigningKey(keyDir);
    expect(await readFile(join(keyDir, 'executor-signing.pub'), 'utf8')).toBe(key.publicKeyPem);
  });

  it('creates the key once, even when several callers race for it', async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => loadOrCreateSigningKey(keyDir)));
    expect(new Set(results.map((result) => result.key.keyId)).size).toBe(1);
    expect(results.filter((result) => result.created)).toHaveLength(1);
    const again = await loadOrCreateSigningKey(keyDir);
    expect(again.created).toBe(false);
    expect(again.key.keyId).toBe(results[0]?.key.keyId);
  });

  it('trusts every *.pub in the folder and reports one that is not an ed25519 public key', async () => {
    const local = generateSigningKey();
    const author = generateSigningKey();
    await saveSigningKey(keyDir, local);
    await writeFile(join(keyDir, 'author.pub'), author.publicKeyPem);
    expect((await loadTrustedKeys(keyDir)).map((key) => key.keyId).sort()).toEqual(
      [local.keyId, author.keyId].sort(),
    );
    await writeFile(join(keyDir, 'broken.pub'), 'not a key');
    await expect(loadTrustedKeys(keyDir)).rejects.toThrow(/broken.pub is not an ed25519 public key/);
  });

  it('returns no trusted keys when the folder does not exist', async () => {
    expect(await loadTrustedKeys(join(keyDir, 'missing'))).toEqual([]);
  });
});
