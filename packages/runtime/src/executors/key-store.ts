import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { link, mkdir, readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ScratchpadError } from 'llm-scratchpad';
import { assertOutsideSandbox } from '../sandbox/assert-outside-sandbox.js';
import {
  generateSigningKey,
  keyIdOf,
  type SigningKey,
  type TrustedKey,
  trustedKeyFromPem,
} from './signing-key.js';

/** Base name of the local signing key files in a key folder (`<name>.key`, `<name>.pub`). */
export const LOCAL_KEY_NAME = 'executor-signing';

/** Options for {@link saveSigningKey}. */
export interface SaveSigningKeyOptions {
  /** Replace an existing key of the same name (executors signed with the old key stop verifying). */
  overwrite?: boolean;
  /** Base file name; default {@link LOCAL_KEY_NAME}. */
  name?: string;
}

/**
 * Writes a signing key into `keyDir` (created with mode 0700): the private key as `<name>.key` with mode 0600,
 * the public key as `<name>.pub`. Every `*.pub` in the folder is trusted by {@link loadTrustedKeys}.
 * The private key appears atomically (written aside, then hard-linked into place), so two processes creating a
 * key at once never see a half-written file. Throws `ENTRY_EXISTS` when a key is already there, `INSIDE_SANDBOX`
 * inside a Scratchpad sandbox.
 */
export async function saveSigningKey(
  keyDir: string,
  key: SigningKey,
  options: SaveSigningKeyOptions = {},
): Promise<void> {
  assertOutsideSandbox('create a signing key');
  const name = options.name ?? LOCAL_KEY_NAME;
  await mkdir(keyDir, { recursive: true, mode: 0o700 });
  const privatePath = join(keyDir, `${name}.key`);
  if (options.overwrite) await unlink(privatePath).catch(ignoreMissing);
  const temporary = join(keyDir, `.${name}.key.${randomBytes(6).toString('hex')}`);
  await writeFile(temporary, key.privateKeyPem, { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, privatePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new ScratchpadError('ENTRY_EXISTS', `a signing key already exists at ${privatePath}`, {
        hint: 'keep using it (executors you signed stay valid), or pass overwrite to replace it and re-sign them',
        details: { path: privatePath },
      });
    }
    throw error;
  } finally {
    await unlink(temporary).catch(ignoreMissing);
  }
  await writeFile(join(keyDir, `${name}.pub`), key.publicKeyPem, { mode: 0o644 });
}

/**
 * Reads the signing key `<name>.key` from `keyDir`, or `undefined` when there is none. Refuses a private key
 * file that group or others can read (as ssh does), and rewrites a missing `<name>.pub` from the private key.
 */
export async function loadSigningKey(keyDir: string, name = LOCAL_KEY_NAME): Promise<SigningKey | undefined> {
  const privatePath = join(keyDir, `${name}.key`);
  let mode: number;
  try {
    mode = (await stat(privatePath)).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if ((mode & 0o077) !== 0) {
    throw new ScratchpadError('CONFIG_INVALID', `signing key ${privatePath} is readable by other users`, {
      hint: `run: chmod 600 ${privatePath}`,
      details: { path: privatePath, mode: (mode & 0o777).toString(8) },
    });
  }
  const privateKeyPem = await readFile(privatePath, 'utf8');
  let publicKeyPem: string;
  try {
    const privateKey = createPrivateKey(privateKeyPem);
    if (privateKey.asymmetricKeyType !== 'ed25519') throw new TypeError('not an ed25519 key');
    publicKeyPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
  } catch (cause) {
    throw new ScratchpadError('CONFIG_INVALID', `signing key ${privatePath} is not an ed25519 private key`, {
      hint: 'delete it and run `scratchpad executor keygen`, then re-sign your executors',
      cause,
    });
  }
  const publicPath = join(keyDir, `${name}.pub`);
  const existingPublic = await readFile(publicPath, 'utf8').catch(() => undefined);
  if (existingPublic !== publicKeyPem) await writeFile(publicPath, publicKeyPem, { mode: 0o644 });
  return { keyId: keyIdOf(publicKeyPem), privateKeyPem, publicKeyPem };
}

/** Result of {@link loadOrCreateSigningKey}. */
export interface LoadOrCreateSigningKeyResult {
  key: SigningKey;
  /** True when this call generated the key. */
  created: boolean;
}

/** Loads the local signing key, generating and saving one on first use (safe when processes race). */
export async function loadOrCreateSigningKey(
  keyDir: string,
  name = LOCAL_KEY_NAME,
  generate: () => SigningKey = generateSigningKey,
): Promise<LoadOrCreateSigningKeyResult> {
  const existing = await loadSigningKey(keyDir, name);
  if (existing) return { key: existing, created: false };
  try {
    const key = generate();
    await saveSigningKey(keyDir, key, { name });
    return { key, created: true };
  } catch (error) {
    if (!ScratchpadError.hasCode(error, 'ENTRY_EXISTS')) throw error;
    const winner = await loadSigningKey(keyDir, name);
    if (!winner) throw error;
    return { key: winner, created: false };
  }
}

/**
 * Every `*.pub` file in `keyDir` as a trusted key (none when the folder does not exist). A file that is not an
 * ed25519 public key is an error, not a silent skip: a user who dropped an author's key there expects it to work.
 */
export async function loadTrustedKeys(keyDir: string): Promise<TrustedKey[]> {
  let names: string[];
  try {
    names = await readdir(keyDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const keys: TrustedKey[] = [];
  for (const fileName of names.filter((entry) => entry.endsWith('.pub')).sort()) {
    const path = join(keyDir, fileName);
    try {
      keys.push(trustedKeyFromPem(await readFile(path, 'utf8')));
    } catch (cause) {
      throw new ScratchpadError(
        'CONFIG_INVALID',
        `trusted key file ${path} is not an ed25519 public key (SPKI PEM)`,
        {
          hint: 'replace it with the PEM printed by `scratchpad executor keygen`, or remove it',
          details: { path },
          cause,
        },
      );
    }
  }
  return keys;
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}
