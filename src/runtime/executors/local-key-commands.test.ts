import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScratchpadError } from '../../core/errors.js';
import {
  createLocalSigningKey,
  signExecutorWithLocalKey,
  verifyExecutorWithLocalKeys,
} from './local-key-commands.js';

let home: string;
let env: Record<string, string>;
let executorDir: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'scratchpad-cli-keys-'));
  env = { XDG_CONFIG_HOME: join(home, 'config'), HOME: home };
  executorDir = join(home, 'hello');
  await mkdir(executorDir);
  await writeFile(join(executorDir, 'index.mjs'), 'process.stdout.write(\'{"ok":true}\');\n');
  await writeFile(
    join(executorDir, 'manifest.json'),
    JSON.stringify({
      name: 'hello',
      description: 'Says hello.',
      affinity: ['hello'],
      capabilities: [],
      args: { type: 'object' },
      entry: ['node', './index.mjs'],
    }),
  );
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('keygen / sign / verify with the local key', () => {
  it('creates the key under $XDG_CONFIG_HOME, signs, and verifies', async () => {
    const created = await createLocalSigningKey({ env });
    expect(created.privateKeyPath).toBe(join(home, 'config', 'scratchpad', 'keys', 'executor-signing.key'));
    expect((await stat(created.privateKeyPath)).mode & 0o777).toBe(0o600);
    const signed = await signExecutorWithLocalKey(executorDir, { env });
    expect(signed.keyId).toBe(created.key.keyId);
    const verified = await verifyExecutorWithLocalKeys(executorDir, { env });
    expect(verified.ok).toBe(true);
  });

  it('refuses a second keygen unless asked to overwrite, after which old signatures no longer verify', async () => {
    await createLocalSigningKey({ env });
    await signExecutorWithLocalKey(executorDir, { env });
    await expect(createLocalSigningKey({ env })).rejects.toSatisfy((error) =>
      ScratchpadError.hasCode(error, 'ENTRY_EXISTS'),
    );
    await createLocalSigningKey({ env, overwrite: true });
    const verified = await verifyExecutorWithLocalKeys(executorDir, { env });
    expect(verified.ok).toBe(false);
    if (!verified.ok) expect(verified.reason).toMatch(/untrusted key/);
  });

  it('tells the user to run keygen when signing without a key, and verify without keys reports untrusted', async () => {
    await expect(signExecutorWithLocalKey(executorDir, { env })).rejects.toSatisfy(
      (error) => ScratchpadError.hasCode(error, 'CONFIG_INVALID') && /keygen/.test(error.hint ?? ''),
    );
    expect(await verifyExecutorWithLocalKeys(executorDir, { env })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^unsigned/),
    });
  });
});
