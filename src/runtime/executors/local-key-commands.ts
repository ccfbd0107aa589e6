import { join } from 'node:path';
import { ScratchpadError } from '../../core/errors.js';
import { LOCAL_KEY_NAME, loadSigningKey, loadTrustedKeys, saveSigningKey } from './key-store.js';
import { type SignExecutorResult, signExecutor } from './sign-executor.js';
import { generateSigningKey, type SigningKey } from './signing-key.js';
import { type VerifyExecutorResult, verifyExecutor } from './verify-executor.js';
import { defaultKeyDir, type EnvironmentVariables } from './xdg-dirs.js';

/** Where the local key lives; shared by the three commands below. */
export interface LocalKeyOptions {
  /** Default `$XDG_CONFIG_HOME/scratchpad/keys`. */
  keyDir?: string;
  env?: EnvironmentVariables;
}

/** Result of {@link createLocalSigningKey}. */
export interface CreateLocalSigningKeyResult {
  key: SigningKey;
  privateKeyPath: string;
  publicKeyPath: string;
}

/**
 * `scratchpad executor keygen`: generates the local ed25519 signing key (private key mode 0600, public key
 * trusted). Throws `ENTRY_EXISTS` when one exists, unless `overwrite` (executors signed with the old key then stop
 * verifying until re-signed; the shipped ones are re-signed by `ensureShippedExecutors`).
 */
export async function createLocalSigningKey(
  options: LocalKeyOptions & { overwrite?: boolean } = {},
): Promise<CreateLocalSigningKeyResult> {
  const keyDir = options.keyDir ?? defaultKeyDir(options.env);
  const key = generateSigningKey();
  await saveSigningKey(keyDir, key, { overwrite: options.overwrite ?? false });
  return {
    key,
    privateKeyPath: join(keyDir, `${LOCAL_KEY_NAME}.key`),
    publicKeyPath: join(keyDir, `${LOCAL_KEY_NAME}.pub`),
  };
}

/**
 * `scratchpad executor sign DIR`: signs the executor in `dir` with the local key. Throws `CONFIG_INVALID` when
 * there is no local key yet, `EXECUTOR_INVALID` when the folder is not a valid executor.
 */
export async function signExecutorWithLocalKey(
  dir: string,
  options: LocalKeyOptions = {},
): Promise<SignExecutorResult> {
  const keyDir = options.keyDir ?? defaultKeyDir(options.env);
  const key = await loadSigningKey(keyDir);
  if (!key) {
    throw new ScratchpadError('CONFIG_INVALID', `no signing key in ${keyDir}`, {
      hint: 'run `scratchpad executor keygen` first',
      details: { keyDir },
    });
  }
  return signExecutor(dir, key);
}

/** `scratchpad executor verify DIR`: verifies the executor in `dir` against every trusted key of the key folder. */
export async function verifyExecutorWithLocalKeys(
  dir: string,
  options: LocalKeyOptions = {},
): Promise<VerifyExecutorResult> {
  return verifyExecutor(dir, await loadTrustedKeys(options.keyDir ?? defaultKeyDir(options.env)));
}
