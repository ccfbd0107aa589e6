import { createPrivateKey, randomBytes, sign } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ScratchpadError } from 'llm-scratchpad';
import { runtimeError } from '../runtime-errors.js';
import { assertOutsideSandbox } from '../sandbox/assert-outside-sandbox.js';
import { computeCodeDigest } from './code-digest.js';
import { type ExecutorManifest, MANIFEST_FILE, unsignedManifest } from './executor-manifest.js';
import { readManifest } from './read-manifest.js';
import { keyIdOf, type SigningKey } from './signing-key.js';
import { signingPayload } from './signing-payload.js';

/** Result of {@link signExecutor}. */
export interface SignExecutorResult {
  /** The manifest as written, with its new `signature` block. */
  manifest: ExecutorManifest;
  codeDigest: string;
  keyId: string;
}

/**
 * Signs the executor in `dir`: digests its code, signs manifest + digest with `key` (ed25519) and writes the
 * signature block into `manifest.json` (atomically, replacing any previous signature). Sign only code you have
 * read: a signature is what makes the loader run it. Throws `EXECUTOR_INVALID` when the folder is not a valid
 * executor (the message says why), `INSIDE_SANDBOX` inside a Scratchpad sandbox.
 */
export async function signExecutor(dir: string, key: SigningKey): Promise<SignExecutorResult> {
  assertOutsideSandbox('sign an executor');
  const folder = resolve(dir);
  const read = await readManifest(folder);
  if (!read.ok) throw invalid(folder, read.reason);
  const digest = await computeCodeDigest(folder);
  if (!digest.ok) throw invalid(folder, digest.reason);
  const privateKey = createPrivateKey(key.privateKeyPem);
  const keyId = keyIdOf(key.publicKeyPem);
  const unsigned = unsignedManifest(read.manifest);
  const value = sign(null, signingPayload(unsigned, digest.digest, keyId), privateKey).toString('base64');
  const manifest: ExecutorManifest = {
    ...unsigned,
    signature: { algorithm: 'ed25519', key_id: keyId, code_digest: digest.digest, value },
  };
  const target = join(folder, MANIFEST_FILE);
  const temporary = join(folder, `.${MANIFEST_FILE}.${randomBytes(6).toString('hex')}`);
  await writeFile(temporary, `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(temporary, target);
  return { manifest, codeDigest: digest.digest, keyId };
}

function invalid(dir: string, reason: string): ScratchpadError {
  return runtimeError('EXECUTOR_INVALID', `cannot sign ${dir}: ${reason}`, {
    hint: 'fix the executor folder (manifest.json, no symbolic links) and sign again',
    details: { dir, reason },
  });
}
