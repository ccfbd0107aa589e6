// web_fetch: fetches a URL with the global fetch. Arguments arrive as one JSON object on stdin; prints one JSON
// object on stdout. The body goes out on the runtime's content channel as it arrives (content-sink.mjs), up to the
// runtime's bound; without a channel it comes back inline, up to 8 MiB (5 MiB unless max_bytes says otherwise).
import { boundName, contentBound, HAS_CHANNEL, openSink, utf8Tracker } from './content-sink.mjs';
import { assertNotLocalLiteral, guardLookups } from './local-address-guard.mjs';

const INLINE_MAX_BYTES = 8 * 1024 * 1024;
const MAX_BYTES = contentBound(INLINE_MAX_BYTES);
const DEFAULT_MAX_BYTES = HAS_CHANNEL ? MAX_BYTES : 5 * 1024 * 1024;
const KEPT_HEADERS = ['content-type', 'content-length', 'last-modified', 'etag', 'location'];
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;
/** Request headers that carry credentials: not sent on to another origin by a redirect. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);
const TEXT_TYPES =
  /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|ecmascript|x-www-form-urlencoded|yaml|x-yaml|toml|csv|graphql)\b)/i;

async function main(args) {
  if (typeof args.url !== 'string' || args.url === '')
    throw new Error('"url" is required and must be a string');
  let url;
  try {
    url = new URL(args.url);
  } catch {
    throw new Error(`not a valid absolute URL: ${args.url}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`only http:// and https:// URLs can be fetched, not ${url.protocol}`);
  }
  const method = (args.method ?? 'GET').toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') throw new Error('"method" must be GET or HEAD');
  const requested = args.max_bytes ?? DEFAULT_MAX_BYTES;
  if (!Number.isSafeInteger(requested) || requested < 1)
    throw new Error('"max_bytes" must be a positive integer');
  // More than the bound allows is cut at the bound, and the result says so.
  const maxBytes = Math.min(requested, MAX_BYTES);
  const timeoutSeconds = args.timeout_seconds ?? 30;
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > 120) {
    throw new Error('"timeout_seconds" must be an integer between 1 and 120');
  }
  const headers = args.headers ?? {};
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    throw new Error('"headers" must be an object of strings');
  }
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string') throw new Error(`header "${name}" must be a string`);
  }

  guardLookups();
  const response = await fetchFollowing(
    url,
    method,
    headers,
    AbortSignal.timeout(timeoutSeconds * 1000),
  ).catch((error) => {
    if (error.code === 'ELOCALADDRESS') throw error;
    if (error.cause?.code === 'ELOCALADDRESS') throw error.cause;
    if (error.name === 'TimeoutError')
      throw new Error(`no response from ${url.href} within ${timeoutSeconds} s`);
    throw new Error(
      `request to ${url.href} failed: ${error.cause?.code ?? error.cause?.message ?? error.message}`,
    );
  });
  const contentType = response.headers.get('content-type') ?? '';
  const textual = TEXT_TYPES.test(contentType) || contentType === '';
  if (HAS_CHANNEL)
    return streamResponse(
      url,
      response,
      { maxBytes, boundCut: requested >= MAX_BYTES },
      contentType,
      textual,
    );
  const { bytes, truncated } = await readBody(response, maxBytes);
  const text = textual ? decodeText(bytes, truncated, contentType) : undefined;
  const metadata = responseMetadata(
    url,
    response,
    bytes.length,
    truncated,
    text === undefined ? 'binary' : 'text',
  );
  const content = text ?? bytes.toString('base64');
  if (response.status >= 400) {
    return { ok: false, error: `HTTP ${response.status} ${response.statusText}`.trim(), content, metadata };
  }
  return { ok: true, content, metadata };
}

/**
 * The body on the content channel as it arrives: UTF-8 text as it is (checked as it goes), text in another declared
 * charset decoded to UTF-8, anything else as bytes; cut at `maxBytes`, and a cut by the runtime's bound says so.
 */
async function streamResponse(url, response, { maxBytes, boundCut }, contentType, textual) {
  const sink = openSink();
  const charset = /charset="?([\w.:-]+)/i.exec(contentType)?.[1]?.toLowerCase();
  let decoder;
  if (textual && charset && !['utf-8', 'utf8', 'us-ascii'].includes(charset)) {
    try {
      decoder = new TextDecoder(charset);
    } catch {
      // An unknown charset label: treat the body as UTF-8.
    }
  }
  const tracker = utf8Tracker();
  let total = 0;
  let truncated = false;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      let chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      if (total + chunk.length > maxBytes) {
        chunk = chunk.subarray(0, maxBytes - total);
        truncated = true;
      }
      total += chunk.length;
      if (decoder) await sink.write(Buffer.from(decoder.decode(chunk, { stream: true }), 'utf8'));
      else await sink.write(textual ? tracker.take(chunk) : chunk);
      if (truncated) {
        await reader.cancel().catch(() => {});
        break;
      }
    }
  }
  let kept = total;
  if (decoder) await sink.write(Buffer.from(decoder.decode(), 'utf8'));
  else if (textual) {
    const { rest, dropped } = tracker.finish(truncated);
    if (rest.length > 0) await sink.write(rest);
    kept -= dropped;
  }
  await sink.end();
  const kind = textual && (decoder || tracker.utf8) ? 'text' : 'binary';
  const metadata = responseMetadata(url, response, kept, truncated, kind);
  if (truncated && boundCut) {
    const length = Number.parseInt(response.headers.get('content-length') ?? '', 10);
    metadata.cut = {
      stored_bytes: kept,
      total_bytes: Number.isSafeInteger(length) && !response.headers.get('content-encoding') ? length : null,
      bound: boundName(INLINE_MAX_BYTES),
      read_on: `web_fetch {"url": ${JSON.stringify(response.url || url.href)}, "headers": {"Range": "bytes=${kept}-"}} (only if the server honours ranges: the status is then 206)`,
    };
  }
  const fields =
    response.status >= 400
      ? { ok: false, error: `HTTP ${response.status} ${response.statusText}`.trim(), metadata }
      : { ok: true, metadata };
  return sink.result(fields, kind);
}

/**
 * Fetches `url`, following up to 20 redirects one hop at a time so that each hop's address is checked (a literal
 * address here, a name at its lookup) and credential headers stay with their origin. The response's `url` is the
 * last hop's.
 */
async function fetchFollowing(url, method, headers, signal) {
  let current = url;
  let sent = headers;
  for (let hop = 0; ; hop += 1) {
    assertNotLocalLiteral(current);
    const response = await fetch(current, { method, headers: sent, redirect: 'manual', signal });
    const location = response.headers.get('location');
    if (!REDIRECTS.has(response.status) || location === null) return response;
    await response.body?.cancel().catch(() => {});
    if (hop === MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
    const next = new URL(location, current);
    if (next.protocol !== 'http:' && next.protocol !== 'https:')
      throw new Error(`redirected to ${next.protocol} (only http:// and https:// are followed)`);
    if (next.origin !== current.origin)
      sent = Object.fromEntries(
        Object.entries(sent).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase())),
      );
    current = next;
  }
}

async function readBody(response, maxBytes) {
  if (!response.body) return { bytes: Buffer.alloc(0), truncated: false };
  const reader = response.body.getReader();
  const chunks = [];
  let total = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.length > maxBytes) {
      chunks.push(Buffer.from(value.subarray(0, maxBytes - total)));
      total = maxBytes;
      truncated = true;
      await reader.cancel().catch(() => {});
      break;
    }
    chunks.push(Buffer.from(value));
    total += value.length;
  }
  return { bytes: Buffer.concat(chunks, total), truncated };
}

function decodeText(bytes, truncated, contentType) {
  const charset = /charset="?([\w.:-]+)/i.exec(contentType)?.[1]?.toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8' && charset !== 'us-ascii') {
    try {
      return new TextDecoder(charset).decode(bytes);
    } catch {
      // An unknown charset label: fall back to UTF-8 detection.
    }
  }
  let usable = bytes;
  if (truncated) {
    // Drop a multi-byte character cut in half at the end, so valid text is not mistaken for binary.
    let end = bytes.length;
    let back = 0;
    while (back < 3 && end - back - 1 >= 0 && (bytes[end - back - 1] & 0xc0) === 0x80) back += 1;
    const lead = bytes[end - back - 1];
    const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (lead !== undefined && needed > back + 1) end -= back + 1;
    usable = bytes.subarray(0, end);
  }
  if (usable.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(usable);
  } catch {
    return undefined;
  }
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
  result = { ok: false, error: error.message };
}
// Exit once the result is flushed: an idle keep-alive socket or timer must not hold the runner until its timeout.
process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0));

/** What the result says of a response: addresses, status, the kept headers, how many bytes were kept and their kind. */
function responseMetadata(url, response, bytes, truncated, kind) {
  const headers = {};
  for (const name of KEPT_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return {
    url: url.href,
    final_url: response.url || url.href,
    status: response.status,
    status_text: response.statusText,
    headers,
    bytes,
    truncated,
    kind,
    encoding: kind === 'text' ? 'utf-8' : 'base64',
  };
}
