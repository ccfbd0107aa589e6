// fs_read: reads a file. Arguments arrive as one JSON object on stdin; prints one JSON object on stdout.
import { open } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';

const MAX_BYTES = 8 * 1024 * 1024;

async function main(args) {
  const path = expandPath(requireString(args, 'path'));
  const encoding = args.encoding ?? 'text';
  if (encoding !== 'text' && encoding !== 'binary') throw new Error('encoding must be "text" or "binary"');
  const maxBytes = optionalCount(args, 'max_bytes') ?? MAX_BYTES;
  const tailBytes = optionalCount(args, 'tail_bytes');
  const handle = await open(path, 'r');
  try {
    const stats = await handle.stat();
    if (stats.isDirectory())
      return failure(`${path} is a directory: use fs_list to see what it contains`, { path });
    const size = stats.size;
    const length = Math.min(tailBytes ?? maxBytes, size);
    const start = tailBytes === undefined ? 0 : size - length;
    const buffer = Buffer.alloc(length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await handle.read(buffer, filled, length - filled, start + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    let bytes = buffer.subarray(0, filled);
    const truncated = start > 0 || start + filled < size;
    const metadata = { path, bytes: size, bytes_read: filled, truncated };
    if (tailBytes !== undefined) metadata.start = start;
    if (encoding === 'text') {
      if (start > 0) bytes = skipContinuationBytes(bytes);
      if (start + filled < size) bytes = dropIncompleteSequence(bytes);
      const text = decodeUtf8(bytes);
      if (text !== undefined) {
        return { ok: true, content: text, metadata: { ...metadata, encoding: 'utf-8', kind: 'text' } };
      }
      metadata.note = 'the file is not UTF-8 text, so its bytes are returned base64-encoded';
      bytes = buffer.subarray(0, filled);
    }
    return {
      ok: true,
      content: bytes.toString('base64'),
      metadata: { ...metadata, encoding: 'base64', kind: 'binary' },
    };
  } finally {
    await handle.close();
  }
}

function decodeUtf8(bytes) {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

// A cut in the middle of a multi-byte character would make valid text look binary: trim to whole characters.
function dropIncompleteSequence(bytes) {
  for (let back = 1; back <= Math.min(4, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? bytes.subarray(0, bytes.length - back) : bytes;
  }
  return bytes;
}

function skipContinuationBytes(bytes) {
  let start = 0;
  while (start < Math.min(3, bytes.length) && (bytes[start] & 0xc0) === 0x80) start += 1;
  return bytes.subarray(start);
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

function optionalCount(args, key) {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (!Number.isInteger(value) || value < 1 || value > MAX_BYTES) {
    throw new Error(`"${key}" must be an integer between 1 and ${MAX_BYTES}`);
  }
  return value;
}

function failure(error, metadata) {
  return { ok: false, error, metadata };
}

function describeError(error) {
  const messages = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    EISDIR: 'is a directory: use fs_list',
    ENOTDIR: 'a parent of the path is not a directory',
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
