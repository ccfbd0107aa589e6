import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runtimeError } from '../runtime-errors.js';
import { canonicalJson } from './canonical-json.js';
import { computeCodeDigest } from './code-digest.js';
import { copyDirectory } from './copy-directory.js';
import { type ExecutorManifest, MANIFEST_FILE, unsignedManifest } from './executor-manifest.js';
import { loadOrCreateSigningKey, loadTrustedKeys } from './key-store.js';
import { readManifest } from './read-manifest.js';
import { signExecutor } from './sign-executor.js';
import type { SigningKey, TrustedKey } from './signing-key.js';
import { verifyExecutor } from './verify-executor.js';
import { scratchpadDataDir } from 'llm-scratchpad/extension';
import { defaultKeyDir, type EnvironmentVariables } from './xdg-dirs.js';

/** Names of the executors shipped in the package's top-level `executors/` folder. */
export const SHIPPED_EXECUTOR_NAMES = ['fs_list', 'fs_read', 'fs_write', 'shell_exec', 'web_fetch'] as const;

/** The package's `executors/` folder (unsigned sources; the same relative path from `src/` and `dist/`). */
export function shippedExecutorsDir(): string {
  return fileURLToPath(new URL('../../executors/', import.meta.url));
}

/** Options for {@link ensureShippedExecutors}. */
export interface EnsureShippedExecutorsOptions {
  /** Scratchpad data folder; executors are installed in `<dataDir>/executors`. Default `$XDG_DATA_HOME/scratchpad`. */
  dataDir?: string;
  /** Signing key folder. Default `$XDG_CONFIG_HOME/scratchpad/keys`. */
  keyDir?: string;
  /** Where the unsigned shipped executors are. Default {@link shippedExecutorsDir}. */
  sourceDir?: string;
  env?: EnvironmentVariables;
  now?: () => Date;
}

/**
 * What happened to one shipped executor:
 * - `installed`: copied and signed (first use);
 * - `unchanged`: the installed copy is the shipped one and verifies;
 * - `resigned`: the installed copy is byte-identical to the shipped one but its signature did not verify (for
 *   example the local key was regenerated), so it was signed again;
 * - `upgraded`: a verified older version was moved to `<executors>/.replaced/` and the new one installed;
 * - `kept`: the installed copy differs from the shipped one with the same version but verifies (a change its
 *   owner reviewed and signed): left alone;
 * - `tampered`: the installed copy differs and does not verify: left in place as evidence, and the loader
 *   discards it. `reason` says why; delete the folder to reinstall, or review and sign it.
 */
export type ShippedExecutorStatus = 'installed' | 'unchanged' | 'resigned' | 'upgraded' | 'kept' | 'tampered';

/** One line of {@link EnsureShippedExecutorsResult}. */
export interface ShippedExecutorReport {
  name: string;
  dir: string;
  status: ShippedExecutorStatus;
  reason?: string;
}

/** Result of {@link ensureShippedExecutors}. */
export interface EnsureShippedExecutorsResult {
  /** The folder that holds the installed executors: pass it to `loadCatalog`. */
  executorsDir: string;
  key: SigningKey;
  keyCreated: boolean;
  /** Every `*.pub` of the key folder, the local key included. */
  trustedKeys: TrustedKey[];
  executors: ShippedExecutorReport[];
}

/**
 * First use of the shipped executors: makes sure a local ed25519 signing key exists (private key mode 0600, its
 * public key trusted), copies each shipped executor into `<dataDir>/executors/<name>` and signs it there with
 * that key. Later calls re-verify every installed copy and never overwrite one that fails verification, so a
 * change made after signing is detected (status `tampered`, and `loadCatalog` discards it). Idempotent and safe
 * when two processes run it at once (installs go through a temporary folder and an atomic rename).
 */
export async function ensureShippedExecutors(
  options: EnsureShippedExecutorsOptions = {},
): Promise<EnsureShippedExecutorsResult> {
  const env = options.env ?? process.env;
  const executorsDir = join(options.dataDir ?? scratchpadDataDir(env), 'executors');
  const keyDir = options.keyDir ?? defaultKeyDir(env);
  const sourceDir = options.sourceDir ?? shippedExecutorsDir();
  const now = options.now ?? (() => new Date());
  const { key, created } = await loadOrCreateSigningKey(keyDir);
  const trustedKeys = await loadTrustedKeys(keyDir);
  await mkdir(executorsDir, { recursive: true, mode: 0o700 });
  const reports: ShippedExecutorReport[] = [];
  for (const sourceFolder of await sourceFolders(sourceDir)) {
    const context: InstallContext = { executorsDir, key, trustedKeys, now };
    reports.push(await ensureOne(sourceFolder, context));
  }
  return { executorsDir, key, keyCreated: created, trustedKeys, executors: reports };
}

interface InstallContext {
  executorsDir: string;
  key: SigningKey;
  trustedKeys: TrustedKey[];
  now: () => Date;
}

interface Snapshot {
  manifest: ExecutorManifest;
  digest: string;
}

async function ensureOne(sourceFolder: string, context: InstallContext): Promise<ShippedExecutorReport> {
  const source = await snapshot(sourceFolder);
  if (!source.ok) {
    throw runtimeError('EXECUTOR_INVALID', `shipped executor ${sourceFolder} is broken: ${source.reason}`, {
      hint: 'reinstall the llm-scratchpad package',
      details: { dir: sourceFolder },
    });
  }
  const name = source.snapshot.manifest.name;
  const target = join(context.executorsDir, name);
  if (!(await exists(target))) {
    const installed = await install(sourceFolder, target, context);
    if (installed) return confirmed(name, target, 'installed', context);
    return ensureOne(sourceFolder, context);
  }
  const verification = await verifyExecutor(target, context.trustedKeys);
  const current = await snapshot(target);
  const same = current.ok && sameContent(current.snapshot, source.snapshot);
  if (same && verification.ok) return { name, dir: target, status: 'unchanged' };
  if (same && !verification.ok) {
    await signExecutor(target, context.key);
    return { ...(await confirmed(name, target, 'resigned', context)), reason: verification.reason };
  }
  if (!verification.ok) return { name, dir: target, status: 'tampered', reason: verification.reason };
  const installedVersion = verification.manifest.version;
  if (installedVersion === source.snapshot.manifest.version) {
    return { name, dir: target, status: 'kept', reason: 'the installed copy was modified and signed again' };
  }
  const backupRoot = join(context.executorsDir, '.replaced');
  await mkdir(backupRoot, { recursive: true, mode: 0o700 });
  const stamp = context.now().toISOString().replace(/[:.]/g, '-');
  const backup = join(backupRoot, `${name}-${installedVersion ?? 'unversioned'}-${stamp}`);
  await rename(target, backup);
  await install(sourceFolder, target, context);
  return {
    ...(await confirmed(name, target, 'upgraded', context)),
    reason: `previous version kept in ${backup}`,
  };
}

/** Copies and signs into a temporary folder, then renames it into place; false when another process won. */
async function install(sourceFolder: string, target: string, context: InstallContext): Promise<boolean> {
  const temporary = join(context.executorsDir, `.installing-${randomBytes(6).toString('hex')}`);
  try {
    await copyDirectory(sourceFolder, temporary);
    await signExecutor(temporary, context.key);
    await rename(temporary, target);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
}

async function confirmed(
  name: string,
  dir: string,
  status: ShippedExecutorStatus,
  context: InstallContext,
): Promise<ShippedExecutorReport> {
  const verification = await verifyExecutor(dir, context.trustedKeys);
  if (!verification.ok) {
    throw runtimeError(
      'EXECUTOR_INVALID',
      `${name} does not verify right after signing: ${verification.reason}`,
      {
        hint: `check that nothing else writes to ${dir}, delete it and try again`,
        details: { dir },
      },
    );
  }
  return { name, dir, status };
}

async function snapshot(
  dir: string,
): Promise<{ ok: true; snapshot: Snapshot } | { ok: false; reason: string }> {
  const read = await readManifest(dir);
  if (!read.ok) return read;
  const digest = await computeCodeDigest(dir);
  if (!digest.ok) return digest;
  return { ok: true, snapshot: { manifest: read.manifest, digest: digest.digest } };
}

function sameContent(left: Snapshot, right: Snapshot): boolean {
  return (
    left.digest === right.digest &&
    canonicalJson(unsignedManifest(left.manifest)) === canonicalJson(unsignedManifest(right.manifest))
  );
}

async function sourceFolders(sourceDir: string): Promise<string[]> {
  const entries = await readdir(sourceDir, { withFileTypes: true });
  const folders: string[] = [];
  for (const entry of entries.filter((item) => item.isDirectory() && !item.name.startsWith('.'))) {
    if (await exists(join(sourceDir, entry.name, MANIFEST_FILE))) folders.push(join(sourceDir, entry.name));
  }
  return folders.sort();
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
