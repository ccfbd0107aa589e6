// fs_list: lists a directory. Arguments arrive as one JSON object on stdin; prints one JSON object on stdout.
import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

const MAX_LIMIT = 10000;

async function main(args) {
  const root = expandPath(args.path ?? '.');
  const recursive = args.recursive ?? false;
  const includeHidden = args.include_hidden ?? false;
  const limit = args.limit ?? 200;
  if (typeof recursive !== 'boolean') throw new Error('"recursive" must be true or false');
  if (typeof includeHidden !== 'boolean') throw new Error('"include_hidden" must be true or false');
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new Error(`"limit" must be an integer between 1 and ${MAX_LIMIT}`);
  }
  const rootStats = await stat(root);
  if (!rootStats.isDirectory())
    return { ok: false, error: `${root} is not a directory: use fs_read`, metadata: { path: root } };
  const lines = [];
  let files = 0;
  let directories = 0;
  let truncated = false;
  const queue = [''];
  while (queue.length > 0 && !truncated) {
    const relative = queue.shift();
    let entries;
    try {
      entries = await readdir(join(root, relative), { withFileTypes: true });
    } catch (error) {
      if (relative === '') throw error;
      lines.push(`${relative}/\t(unreadable: ${error.code ?? error.message})`);
      continue;
    }
    entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    for (const entry of entries) {
      if (!includeHidden && entry.name.startsWith('.')) continue;
      if (lines.length >= limit) {
        truncated = true;
        break;
      }
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        directories += 1;
        lines.push(`${path}/`);
        if (recursive && entry.name !== 'node_modules') queue.push(path);
      } else {
        files += 1;
        const size = await stat(join(root, path)).then(
          (stats) => stats.size,
          () => undefined,
        );
        const note = entry.isSymbolicLink() ? ' (symbolic link)' : '';
        lines.push(size === undefined ? `${path}${note}` : `${path}\t${size}${note}`);
      }
    }
  }
  const content = lines.length === 0 ? '(empty directory)' : lines.join('\n');
  return { ok: true, content, metadata: { path: root, count: lines.length, files, directories, truncated } };
}

function expandPath(path) {
  if (typeof path !== 'string' || path === '') throw new Error('"path" must be a non-empty string');
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return resolve(homedir(), path.slice(2));
  return resolve(path);
}

function describeError(error) {
  const messages = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    ENOTDIR: 'not a directory',
  };
  return messages[error.code] ? `${messages[error.code]}: ${error.path ?? ''}`.trim() : error.message;
}

async function readArguments() {
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  const args = text.trim() === '' ? {} : JSON.parse(text);
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    throw new Error('arguments must be a JSON object');
  return args;
}

let result;
try {
  result = await main(await readArguments());
} catch (error) {
  result = { ok: false, error: describeError(error) };
}
// Exit once the result is flushed: an idle keep-alive socket or timer must not hold the runner until its timeout.
process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));
