import { lstat, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { computeCodeDigest } from './code-digest.js';
import type { Executor } from './executor.js';
import { MANIFEST_FILE } from './executor-manifest.js';

/** Subfolder of a call's staging folder that holds the verified copy of the executor's code. */
export const STAGED_CODE_FOLDER = 'executor';

/**
 * Where calls are staged by default: one folder of this user in the OS temporary folder (mode 0700), which the
 * sandbox hides from every call; a dedicated folder, so that the temporary folder itself stays readable and can
 * be granted as a write root.
 */
export function defaultStagingRoot(): string {
  return join(tmpdir(), `scratchpad-calls-${process.getuid?.() ?? 'user'}`);
}

/** Result of {@link stageExecutor}: a private folder holding the verified code, or why the call must not run. */
export type StageExecutorResult =
  | { ok: true; stagingDir: string; codeDir: string }
  | { ok: false; reason: string };

/**
 * Makes the private copy one call runs from: reads every file of the executor's folder once, hashes those bytes
 * and writes the same bytes, read-only, into `<stagingDir>/executor/` (a new folder under `root`, mode 0700), plus
 * the manifest verified at load time. When the digest of what was read is not the digest the executor was
 * verified with, nothing is kept and the call is refused: a change made between catalog load and call never
 * runs, and the old code is never silently run in its place. The caller removes `stagingDir` after the call.
 */
export async function stageExecutor(
  executor: Executor,
  root: string = defaultStagingRoot(),
): Promise<StageExecutorResult> {
  try {
    await ensurePrivateFolder(root);
  } catch (error) {
    return {
      ok: false,
      reason: `Refused: ${executor.name} was not run: ${(error as Error).message}. Tell the user.`,
    };
  }
  const stagingDir = await mkdtemp(join(root, 'scratchpad-call-'));
  const codeDir = join(stagingDir, STAGED_CODE_FOLDER);
  try {
    await mkdir(codeDir, { mode: 0o700 });
    const digest = await computeCodeDigest(executor.dir, {
      onFile: async ({ relativePath, content, mode }) => {
        const target = join(codeDir, relativePath);
        await mkdir(dirname(target), { recursive: true, mode: 0o700 });
        await writeFile(target, content, { mode: mode & 0o555, flag: 'wx' });
      },
    });
    if (!digest.ok) return await refuse(stagingDir, executor, digest.reason);
    if (digest.digest !== executor.codeDigest) {
      return await refuse(
        stagingDir,
        executor,
        `its code changed after it was verified (verified ${executor.codeDigest}, found ${digest.digest})`,
      );
    }
    await writeFile(join(codeDir, MANIFEST_FILE), `${JSON.stringify(executor.manifest, null, 2)}\n`, {
      mode: 0o444,
      flag: 'wx',
    });
    return { ok: true, stagingDir, codeDir };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return refuse(stagingDir, executor, `its code cannot be read (${code ?? (error as Error).message})`);
  }
}

async function refuse(stagingDir: string, executor: Executor, why: string): Promise<StageExecutorResult> {
  await rm(stagingDir, { recursive: true, force: true });
  return {
    ok: false,
    reason:
      `Refused: ${executor.name} was not run because ${why}. A changed executor never runs, and the next ` +
      `catalog load discards it as tampered. Tell the user; do not try to repair, replace or re-sign it.`,
  };
}

/**
 * Creates `root` (mode 0700) when missing and checks that it is a real folder of this user that nobody else can
 * write: in a shared temporary folder, another user could have made it first to swap the code a call runs.
 */
async function ensurePrivateFolder(root: string): Promise<void> {
  await mkdir(root, { recursive: true, mode: 0o700 });
  const stats = await lstat(root);
  const uid = process.getuid?.();
  if (!stats.isDirectory() || (uid !== undefined && stats.uid !== uid) || (stats.mode & 0o022) !== 0) {
    throw new Error(
      `the staging folder ${root} is not a private folder of this user (a link, another owner, or writable by others); remove it`,
    );
  }
}
