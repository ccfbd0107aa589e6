import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeRequest, FakeScriptStep } from './fake-script.js';

/** A running fake provider server. */
export interface FakeServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** What to pass to the provider's client as its base URL (`url`, or `url/v1` for OpenAI). */
  readonly baseURL: string;
  /** Every request received, in order, including model listings and failed ones. */
  readonly requests: readonly FakeRequest[];
  /** Steps not yet used. */
  readonly remaining: number;
  /** Adds steps to the end of the script. */
  enqueue(...steps: FakeScriptStep[]): void;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** What a route answers. */
export interface FakeResponse {
  status: number;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent verbatim with `contentType`. */
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** Routes of one fake: `next()` takes the next script step, or `undefined` when the script is used up. */
export type FakeRouter = (
  request: FakeRequest,
  next: () => FakeScriptStep | undefined,
) => Promise<FakeResponse | undefined> | FakeResponse | undefined;

/**
 * Starts a `node:http` server on 127.0.0.1 (a free port) that records every request and answers through
 * `router`. A route that returns `undefined` gets a 404; a body that is not JSON gets a 400.
 */
export async function startFakeHttpServer(
  router: FakeRouter,
  script: readonly FakeScriptStep[],
  basePath = '',
): Promise<FakeServer> {
  const queue = [...script];
  const requests: FakeRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    handle(incoming, outgoing).catch((error: unknown) => {
      send(outgoing, { status: 500, json: { error: `fake server failure: ${(error as Error).message}` } });
    });
  });
  async function handle(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const request: FakeRequest = {
      method: incoming.method ?? 'GET',
      path: new URL(incoming.url ?? '/', 'http://fake').pathname,
      headers: incoming.headers,
      body: undefined,
    };
    requests.push(request);
    if (text !== '') {
      try {
        request.body = JSON.parse(text);
      } catch {
        send(outgoing, { status: 400, json: { error: 'request body is not valid JSON' } });
        return;
      }
    }
    const response = (await router(request, () => queue.shift())) ?? {
      status: 404,
      json: { error: `no route for ${request.method} ${request.path}` },
    };
    if (response.delayMs) await new Promise((resolve) => setTimeout(resolve, response.delayMs));
    send(outgoing, response);
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    baseURL: url + basePath,
    requests,
    get remaining() {
      return queue.length;
    },
    enqueue(...steps) {
      queue.push(...steps);
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

function send(outgoing: ServerResponse, response: FakeResponse): void {
  if (outgoing.destroyed || outgoing.headersSent) return;
  const body = response.json === undefined ? (response.text ?? '') : JSON.stringify(response.json);
  outgoing.writeHead(response.status, {
    'content-type': response.json === undefined ? (response.contentType ?? 'text/plain') : 'application/json',
    ...response.headers,
  });
  outgoing.end(body);
}
