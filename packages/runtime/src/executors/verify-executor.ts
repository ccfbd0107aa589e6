import { createPublicKey, verify } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { computeCodeDigest } from './code-digest.js';
import { type Executor, toExecutor } from './executor.js';
import type { ExecutorManifest } from './executor-manifest.js';
import { readManifest } from './read-manifest.js';
import type { TrustedKey } from './signing-key.js';
import { signingPayload } from './signing-payload.js';

/** Result of {@link verifyExecutor}: the executor, or why it must not run. */
export type VerifyExecutorResult =
  | { ok: true; executor: Executor; manifest: ExecutorManifest }
  | { ok: false; reason: string; name?: string };

/**
 * Checks the executor in `dir`, in this order: a valid `manifest.json`; a signature block; a signing key among
 * `trustedKeys`; a signature that verifies over manifest + code digest (else the manifest changed after signing);
 * every `./` entry file present; the code digest recomputed from disk equal to the signed one (else the code
 * changed after signing). Never throws for a bad executor: the reason says what failed and what to do.
 */
export async function verifyExecutor(
  dir: string,
  trustedKeys: readonly TrustedKey[],
): Promise<VerifyExecutorResult> {
  const folder = resolve(dir);
  const read = await readManifest(folder);
  if (!read.ok) return read;
  const manifest = read.manifest;
  const name = manifest.name;
  const signature = manifest.signature;
  if (!signature) {
    return { ok: false, name, reason: 'unsigned: review the code, then run `scratchpad executor sign DIR`' };
  }
  const trusted = trustedKeys.find((key) => key.keyId === signature.key_id);
  if (!trusted) {
    return {
      ok: false,
      name,
      reason: `signed by untrusted key ${signature.key_id}: add the author's public key to the keys folder, or re-sign with yours`,
    };
  }
  const payload = signingPayload(manifest, signature.code_digest, signature.key_id);
  const valid = verify(
    null,
    payload,
    createPublicKey(trusted.publicKeyPem),
    Buffer.from(signature.value, 'base64'),
  );
  if (!valid) {
    return { ok: false, name, reason: 'signature does not verify: manifest.json was modified after signing' };
  }
  for (const word of manifest.entry) {
    if (!word.startsWith('./')) continue;
    const file = resolve(folder, word);
    if (!file.startsWith(`${folder}/`))
      return { ok: false, name, reason: `entry ${word} points outside the folder` };
    const isFile = await stat(file).then(
      (stats) => stats.isFile(),
      () => false,
    );
    if (!isFile) return { ok: false, name, reason: `entry file ${word} is missing` };
  }
  const digest = await computeCodeDigest(folder);
  if (!digest.ok) return { ok: false, name, reason: digest.reason };
  if (digest.digest !== signature.code_digest) {
    return {
      ok: false,
      name,
      reason: `code digest mismatch: the code was modified after signing (signed ${signature.code_digest}, found ${digest.digest})`,
    };
  }
  return { ok: true, executor: toExecutor(manifest, folder, trusted.keyId, digest.digest), manifest };
}
