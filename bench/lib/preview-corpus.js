import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/**
 * Where the preview corpus is: `--data DIR` when given, else the nearest `shared/data/previews` beside the
 * repository or one of its parents (`../shared` next to a clone, `../../shared` next to a worktree folder).
 * Returns `undefined` when there is none.
 */
export function findPreviewCorpus(root, explicit) {
  if (explicit) return existsSync(join(explicit, 'questions.json')) ? explicit : undefined;
  for (let directory = dirname(root); ; directory = dirname(directory)) {
    const candidate = join(directory, 'shared', 'data', 'previews');
    if (existsSync(join(candidate, 'questions.json'))) return candidate;
    if (dirname(directory) === directory) return undefined;
  }
}

/**
 * The corpus items with their text (gunzipped, checked against the recorded SHA-256) and questions.
 * `only` keeps the items whose id is listed (all when empty).
 */
export function loadPreviewCorpus(directory, only = []) {
  const { items } = JSON.parse(readFileSync(join(directory, 'questions.json'), 'utf8'));
  return items
    .filter((item) => only.length === 0 || only.includes(item.id))
    .map((item) => {
      const bytes = gunzipSync(readFileSync(join(directory, item.file)));
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      if (item.sha256 && sha256 !== item.sha256) {
        throw new Error(`${item.file}: SHA-256 ${sha256} does not match questions.json (${item.sha256})`);
      }
      return { ...item, text: bytes.toString('utf8') };
    });
}
