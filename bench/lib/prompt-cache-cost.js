/**
 * The input cost of a conversation's requests under provider prompt caching, in units of one uncached input token:
 * each request reads from the cache the messages it shares, from the start, with the request before (billed at
 * `readPrice` times the uncached price) and writes the rest to the cache (at `writePrice` times), the way Anthropic's
 * automatic prefix caching with a breakpoint on the newest message bills. Tokens are estimated as characters / 4.
 * The first request writes everything.
 *
 * `requests`: one array of message texts per request, in order.
 */
export function promptCacheCost(requests, { readPrice = 0.1, writePrice = 1.25 } = {}) {
  let cost = 0;
  let previous = [];
  for (const request of requests) {
    let shared = 0;
    while (shared < request.length && shared < previous.length && request[shared] === previous[shared])
      shared++;
    let readChars = 0;
    let writeChars = 0;
    for (let index = 0; index < request.length; index++) {
      if (index < shared) readChars += request[index].length;
      else writeChars += request[index].length;
    }
    cost += (readPrice * readChars + writePrice * writeChars) / 4;
    previous = request;
  }
  return cost;
}

/** The model whose prices the cost column uses (per million input tokens, USD). */
export const PRICED_MODEL = Object.freeze({
  name: 'Claude Sonnet 4.5',
  input: 3,
  cacheRead: 0.3,
  cacheWrite: 3.75,
});
