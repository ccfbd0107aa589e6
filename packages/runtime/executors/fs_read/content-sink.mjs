// The runtime's content channel, shared by the shipped executors (each folder holds the same copy: an executor is
// signed and staged on its own). When the runtime opens one (file descriptor $SCRATCHPAD_CONTENT_FD), content is
// written to it as it is produced, up to $SCRATCHPAD_MAX_CONTENT_BYTES, and the JSON result says
// `content_stream: "text" | "binary"`; without one, the content is collected in memory (up to the inline limit)
// and returned inside the JSON, as before.

import { isUtf8 } from 'node:buffer';
import { createWriteStream } from 'node:fs';

const CHANNEL_FD = Number.parseInt(process.env.SCRATCHPAD_CONTENT_FD ?? '', 10);

/** True when the runtime reads a content channel. */
export const HAS_CHANNEL = Number.isInteger(CHANNEL_FD) && CHANNEL_FD > 2;

/** The most bytes the content may have: the runtime's bound, or `inlineMax` without a channel. */
export function contentBound(inlineMax) {
  if (!HAS_CHANNEL) return inlineMax;
  const value = Number.parseInt(process.env.SCRATCHPAD_MAX_CONTENT_BYTES ?? '', 10);
  return Number.isSafeInteger(value) && value > 0 ? value : 1024 ** 3;
}

/** How the bound is named to the model. */
export function boundName(inlineMax) {
  return HAS_CHANNEL ? '[runtime] max_stored_bytes' : `the inline limit of ${inlineMax} bytes`;
}

/** Where content goes: the channel (with backpressure), else memory. */
export function openSink() {
  if (HAS_CHANNEL) {
    const out = createWriteStream(null, { fd: CHANNEL_FD, highWaterMark: 1024 * 1024 });
    let failure;
    out.on('error', (error) => {
      failure = error;
    });
    return {
      write: (chunk) =>
        new Promise((done, fail) => {
          if (failure) return fail(failure);
          if (out.write(chunk)) return done();
          const onError = (error) => {
            out.off('drain', onDrain);
            fail(error);
          };
          const onDrain = () => {
            out.off('error', onError);
            done();
          };
          out.once('drain', onDrain);
          out.once('error', onError);
        }),
      end: () => new Promise((done) => out.end(done)),
      result: (fields, kind) => ({ ...fields, content_stream: kind }),
    };
  }
  const chunks = [];
  return {
    write: async (chunk) => {
      chunks.push(Buffer.from(chunk));
    },
    end: async () => {},
    result: (fields, kind) => {
      const bytes = Buffer.concat(chunks);
      return { ...fields, content: kind === 'text' ? bytes.toString('utf8') : bytes.toString('base64') };
    },
  };
}

/**
 * Checks UTF-8 across chunks: `take(chunk)` returns the bytes that end on a character boundary (a character split
 * between chunks is carried to the next); `finish(cut)` returns what was carried: dropped when a bound cut the
 * content there, kept (and the content is then not UTF-8) when the content really ends that way. NUL bytes make
 * content binary too.
 */
export function utf8Tracker() {
  let carry = Buffer.alloc(0);
  let utf8 = true;
  return {
    take(raw) {
      const chunk = carry.length > 0 ? Buffer.concat([carry, raw]) : raw;
      const whole = wholeCharacters(chunk);
      carry = Buffer.from(chunk.subarray(whole));
      const part = chunk.subarray(0, whole);
      if (utf8 && (part.includes(0) || !isUtf8(part))) utf8 = false;
      return part;
    },
    finish(cut) {
      const rest = carry;
      carry = Buffer.alloc(0);
      if (rest.length === 0 || cut) return { rest: Buffer.alloc(0), dropped: rest.length };
      utf8 = false;
      return { rest, dropped: 0 };
    },
    get utf8() {
      return utf8;
    },
  };
}

/** The length of the prefix of `bytes` that ends on a character boundary (at most 3 bytes are held back). */
function wholeCharacters(bytes) {
  for (let back = 1; back <= Math.min(4, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}
