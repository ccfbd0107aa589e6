// fs_read: reads a file. Arguments arrive as one JSON object on stdin; prints one JSON object on stdout. The bytes
// go out on the runtime's content channel as they are read (content-sink.mjs), so a file of any size up to the
// runtime's bound is stored whole without being held in memory; without a channel they come back inline in the
// JSON, up to 8 MiB.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { boundName, contentBound, openSink, utf8Tracker } from './content-sink.mjs';

const INLINE_MAX_BYTES = 8 * 1024 * 1024;
const BOUND = contentBound(INLINE_MAX_BYTES);

async function main(args) {
  const path = expandPath(requireString(args, 'path'));
  const encoding = args.encoding ?? 'text';
  if (encoding !== 'text' && encoding !== 'binary') throw new Error('encoding must be "text" or "binary"');
  const maxBytes = optionalCount(args, 'max_bytes');
  const tailBytes = optionalCount(args, 'tail_bytes');
  const offset = optionalOffset(args, 'offset');
  if (tailBytes !== undefined && offset !== undefined)
    throw new Error('give "offset" or "tail_bytes", not both');
  const handle = await open(path, 'r');
  let stats;
  try {
    stats = await handle.stat();
  } finally {
    await handle.close();
  }
  if (stats.isDirectory())
    return failure(`${path} is a directory: use fs_list to see what it contains`, { path });
  const size = stats.size;
  const start = tailBytes !== undefined ? Math.max(0, size - tailBytes) : Math.min(offset ?? 0, size);
  const wanted = Math.min(size - start, maxBytes ?? Number.POSITIVE_INFINITY);
  const length = Math.min(wanted, BOUND);
  const text = encoding === 'text';
  const sink = openSink();
  const copied = await copyRange(path, start, length, sink, {
    text,
    dropLeadingContinuation: text && start > 0,
    cutAtEnd: start + length < size,
  });
  await sink.end();
  const kind = text && copied.utf8 ? 'text' : 'binary';
  const end = start + copied.sourceBytes;
  const metadata = { path, bytes: size, bytes_read: copied.sourceBytes, truncated: start > 0 || end < size };
  if (start > 0 || tailBytes !== undefined) metadata.start = start;
  if (text && !copied.utf8) metadata.note = 'the file is not UTF-8 text, so its bytes are kept as binary';
  if (end < size && length < wanted) {
    // The bound cut what was asked for: say how much of how much, and the call that reads on.
    metadata.cut = {
      stored_bytes: copied.sourceBytes,
      total_bytes: size,
      ...(start > 0 ? { start } : {}),
      bound: boundName(INLINE_MAX_BYTES),
      read_on: `fs_read {"path": ${JSON.stringify(path)}, "offset": ${end}}`,
    };
  }
  return sink.result(
    { ok: true, metadata: { ...metadata, encoding: kind === 'text' ? 'utf-8' : 'base64', kind } },
    kind,
  );
}

/**
 * Copies [start, start + length) of the file into the sink, a chunk at a time. For text, checks UTF-8 as it goes,
 * skips continuation bytes at a start inside a character, and at a cut end drops a character cut in half, so
 * valid text is never mistaken for binary.
 */
async function copyRange(path, start, length, sink, options) {
  const tracker = utf8Tracker();
  let sourceBytes = 0;
  let first = true;
  if (length > 0) {
    const stream = createReadStream(path, { start, end: start + length - 1, highWaterMark: 1024 * 1024 });
    for await (const raw of stream) {
      sourceBytes += raw.length;
      let chunk = raw;
      if (first && options.dropLeadingContinuation) chunk = skipContinuationBytes(chunk);
      first = false;
      await sink.write(options.text ? tracker.take(chunk) : chunk);
    }
  }
  if (!options.text) return { utf8: false, sourceBytes };
  const { rest, dropped } = tracker.finish(options.cutAtEnd);
  if (rest.length > 0) await sink.write(rest);
  return { utf8: tracker.utf8, sourceBytes: sourceBytes - dropped };
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
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`"${key}" must be a positive integer`);
  return value;
}

function optionalOffset(args, key) {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`"${key}" must be an integer of at least 0`);
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
