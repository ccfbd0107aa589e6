// fs_write: writes or appends to a file. Arguments arrive as one JSON object on stdin; prints one JSON object.
import { appendFile, mkdir, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';

async function main(args) {
  const path = expandPath(requireString(args, 'path'));
  if (args.content === undefined || args.content === null) throw new Error('"content" is required');
  // A piped value ({{stepN.metadata}}) may be an object: write it as JSON rather than "[object Object]".
  const text = typeof args.content === 'string' ? args.content : JSON.stringify(args.content, null, 2);
  const encoding = args.encoding ?? 'text';
  if (encoding !== 'text' && encoding !== 'base64') throw new Error('encoding must be "text" or "base64"');
  const append = args.append ?? false;
  if (typeof append !== 'boolean') throw new Error('"append" must be true or false');
  const bytes = encoding === 'base64' ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8');
  const before = await stat(path).catch((error) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (before?.isDirectory())
    return { ok: false, error: `${path} is a directory: give a file path`, metadata: { path } };
  await makeParents(dirname(path));
  if (append) await appendFile(path, bytes);
  else await writeFile(path, bytes);
  const size = (await stat(path)).size;
  const verb = append ? 'appended' : 'wrote';
  const sizeNote = append ? ` (file is now ${size} bytes)` : '';
  return {
    ok: true,
    content: `${verb} ${bytes.length} bytes to ${path}${sizeNote}`,
    metadata: { path, bytes_written: bytes.length, size, append, created: before === undefined },
  };
}

// Missing parent folders, made one at a time: a recursive mkdir reports a read-only file system as "no such file
// or directory" (Node), which would hide why the write was refused.
async function makeParents(folder) {
  const missing = [];
  for (let current = folder; !(await exists(current)); current = dirname(current)) {
    missing.unshift(current);
    if (dirname(current) === current) break;
  }
  for (const path of missing)
    await mkdir(path).catch((error) => {
      if (error.code !== 'EEXIST') throw error;
    });
}

async function exists(path) {
  return stat(path).then(
    () => true,
    () => false,
  );
}

function expandPath(path) {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return resolve(homedir(), path.slice(2));
  return resolve(path);
}

function requireString(args, key) {
  const value = args[key];
  if (typeof value !== 'string' || value === '')
    throw new Error(`"${key}" is required and must be a non-empty string`);
  return value;
}

function describeError(error) {
  const messages = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    EISDIR: 'is a directory',
    ENOTDIR: 'a parent of the path is not a directory',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on device',
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
