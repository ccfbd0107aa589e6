import { createHash } from 'node:crypto';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MANIFEST_FILE } from './executor-manifest.js';

/** Result of {@link computeCodeDigest}: the digest, or why the folder cannot be digested. */
export type CodeDigestResult = { ok: true; digest: string; files: string[] } | { ok: false; reason: string };

/** One file of the code, with the exact bytes that went into the digest. */
export interface DigestedFile {
  relativePath: string;
  content: Buffer;
  /** Permission bits as found (`stat.mode & 0o777`). */
  mode: number;
}

/** Options of {@link computeCodeDigest}. */
export interface CodeDigestOptions {
  /** Called with every file's bytes as they are hashed: a copy made here is the code the digest describes. */
  onFile?: (file: DigestedFile) => Promise<void>;
}

/**
 * SHA-256 over every file of an executor folder except the top-level `manifest.json`, as `sha256:<hex>`.
 * Each file contributes its relative POSIX path, its size and the SHA-256 of its bytes, in sorted path order, so
 * renaming, adding, removing or editing any file changes the digest. Symbolic links and special files are
 * refused: a link could point at code outside the folder that changes without the digest noticing. Each file is
 * read once, so the bytes handed to `onFile` are the bytes that were hashed.
 */
export async function computeCodeDigest(
  dir: string,
  options: CodeDigestOptions = {},
): Promise<CodeDigestResult> {
  const files = new Map<string, number>();
  const problem = await collectFiles(dir, '', files);
  if (problem) return { ok: false, reason: problem };
  const paths = [...files.keys()].sort();
  const digest = createHash('sha256');
  for (const relativePath of paths) {
    const content = await readFile(join(dir, relativePath));
    const fileHash = createHash('sha256').update(content).digest('hex');
    digest.update(`${relativePath}\0${content.length}\0${fileHash}\n`);
    await options.onFile?.({ relativePath, content, mode: files.get(relativePath) ?? 0o644 });
  }
  return { ok: true, digest: `sha256:${digest.digest('hex')}`, files: paths };
}

async function collectFiles(
  root: string,
  prefix: string,
  files: Map<string, number>,
): Promise<string | undefined> {
  const entries = await readdir(join(root, prefix), { withFileTypes: true });
  for (const entry of entries) {
    const relativePath = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (relativePath === MANIFEST_FILE) continue;
    const stats = await lstat(join(root, relativePath));
    if (stats.isSymbolicLink()) return `symbolic link not allowed in an executor folder: ${relativePath}`;
    if (stats.isDirectory()) {
      const problem = await collectFiles(root, relativePath, files);
      if (problem) return problem;
    } else if (stats.isFile()) {
      files.set(relativePath, stats.mode & 0o777);
    } else {
      return `special file not allowed in an executor folder: ${relativePath}`;
    }
  }
  return undefined;
}
