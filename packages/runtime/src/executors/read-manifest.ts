import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ExecutorManifest, MANIFEST_FILE, parseExecutorManifest } from './executor-manifest.js';

/** Result of {@link readManifest}. `name` is set when the file at least names the executor. */
export type ReadManifestResult =
  | { ok: true; manifest: ExecutorManifest }
  | { ok: false; reason: string; name?: string };

/** Reads and validates `<dir>/manifest.json`, turning every problem into a reason a person can act on. */
export async function readManifest(dir: string): Promise<ReadManifestResult> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST_FILE), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, reason: `missing ${MANIFEST_FILE}` };
    return { ok: false, reason: `cannot read ${MANIFEST_FILE}: ${(error as Error).message}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `${MANIFEST_FILE} is not valid JSON: ${(error as Error).message}` };
  }
  const parsed = parseExecutorManifest(json);
  if (parsed.ok) return parsed;
  const name = (json as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? { ok: false, reason: parsed.reason, name } : parsed;
}
