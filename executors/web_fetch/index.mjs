// web_fetch: fetches a URL with the global fetch. Arguments arrive as one JSON object on stdin; prints one JSON
// object on stdout.
const MAX_BYTES = 8 * 1024 * 1024;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const KEPT_HEADERS = ['content-type', 'content-length', 'last-modified', 'etag', 'location'];
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
  const maxBytes = args.max_bytes ?? DEFAULT_MAX_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < 1 || maxBytes > MAX_BYTES) {
    throw new Error(`"max_bytes" must be an integer between 1 and ${MAX_BYTES}`);
  }
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

  let response;
  try {
    response = await fetch(url, {
      method,
      headers,
      redirect: 'follow',
      signal: AbortSignal.timeout(timeoutSeconds * 1000),
    });
  } catch (error) {
    const cause = error.cause?.code ?? error.cause?.message ?? error.message;
    if (error.name === 'TimeoutError')
      throw new Error(`no response from ${url.href} within ${timeoutSeconds} s`);
    throw new Error(`request to ${url.href} failed: ${cause}`);
  }
  const { bytes, truncated } = await readBody(response, maxBytes);
  const contentType = response.headers.get('content-type') ?? '';
  const text =
    TEXT_TYPES.test(contentType) || contentType === ''
      ? decodeText(bytes, truncated, contentType)
      : undefined;
  const keptHeaders = {};
  for (const name of KEPT_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) keptHeaders[name] = value;
  }
  const metadata = {
    url: url.href,
    final_url: response.url || url.href,
    status: response.status,
    status_text: response.statusText,
    headers: keptHeaders,
    bytes: bytes.length,
    truncated,
    kind: text === undefined ? 'binary' : 'text',
    encoding: text === undefined ? 'base64' : 'utf-8',
  };
  const content = text ?? bytes.toString('base64');
  if (response.status >= 400) {
    return { ok: false, error: `HTTP ${response.status} ${response.statusText}`.trim(), content, metadata };
  }
  return { ok: true, content, metadata };
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
