import { randomBytes } from 'node:crypto';
import { createServer, type Server, Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeEventLoop, TEST_STALL_BOUND_MS } from '../../../test/support/event-loop-probe.js';
import { requireTestServer } from '../../../test/support/require-postgres.js';
import { ScratchpadError } from '../../core/errors.js';
import { createScratchpad } from '../../scratchpad/scratchpad.js';
import { createPostgresDriver } from './postgres-driver.js';

const url = process.env.SCRATCHPAD_TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/test';
const admin = new pg.Pool({ connectionString: url, max: 1 });
const schema = `scratchpad_test_${randomBytes(6).toString('hex')}`;

/** How long a statement may go unanswered in these tests. */
const QUERY_TIMEOUT_MS = 1_000;

/**
 * A TCP proxy to the test server on 127.0.0.1 that can stop passing bytes without closing anything, as a
 * network partition or a frozen host does: both sides keep their connections open and hear nothing.
 */
class PartitionableProxy {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #partitioned = false;

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(target: URL): Promise<PartitionableProxy> {
    const server = createServer();
    const proxy = new PartitionableProxy(server);
    server.on('connection', (client) => proxy.#bridge(client, target));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    const address = this.#server.address();
    if (address === null || typeof address === 'string') throw new Error('The proxy is not listening.');
    return address.port;
  }

  /** From now on, bytes in either direction are dropped; connections stay open. */
  partition(): void {
    this.#partitioned = true;
  }

  /** Bytes pass again (connections made meanwhile, or still open, carry them). */
  heal(): void {
    this.#partitioned = false;
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #bridge(client: Socket, target: URL): void {
    const server = new Socket();
    server.connect(Number(target.port || 5432), target.hostname);
    for (const [from, to] of [
      [client, server],
      [server, client],
    ] as const) {
      this.#sockets.add(from);
      from.on('data', (bytes) => {
        if (!this.#partitioned) to.write(bytes);
      });
      from.on('error', () => to.destroy());
      from.on('close', () => {
        this.#sockets.delete(from);
        to.destroy();
      });
    }
  }
}

let proxy: PartitionableProxy;

beforeAll(async () => {
  await requireTestServer(admin, url);
  proxy = await PartitionableProxy.start(new URL(url));
});
afterAll(async () => {
  await proxy?.close();
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
});

describe('PostgreSQL behind a network that stops answering', () => {
  it('fails writes and reads with STORE_UNAVAILABLE after the query timeout, without blocking, then recovers', async () => {
    const through = new URL(url);
    through.hostname = '127.0.0.1';
    through.port = String(proxy.port);
    const driver = await createPostgresDriver({
      connectionString: through.toString(),
      schema,
      queryTimeoutMs: QUERY_TIMEOUT_MS,
    });
    const pad = createScratchpad({ driver });
    await pad.write('s1', 'before', 'written before the partition');

    proxy.partition();
    const started = Date.now();
    const probe = await probeEventLoop(() =>
      Promise.allSettled([
        pad.write('s1', 'during', 'never acknowledged'),
        pad.read('s1', 'before'),
        pad.write('s1', 'before', ' and more', { mode: 'append' }),
      ]),
    );
    const elapsed = Date.now() - started;
    expect(probe.worstDelayMs).toBeLessThan(TEST_STALL_BOUND_MS);
    // Each call waits at most one timeout per statement it had sent (an append's transaction: its BEGIN).
    expect(elapsed).toBeGreaterThanOrEqual(QUERY_TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(4 * QUERY_TIMEOUT_MS);
    for (const settled of probe.value) {
      expect(settled.status).toBe('rejected');
      const error = (settled as PromiseRejectedResult).reason;
      expect(ScratchpadError.hasCode(error, 'STORE_UNAVAILABLE')).toBe(true);
      // A statement sent on an open connection times out; one that needed a new connection, its connect does.
      expect((error as Error).message).toMatch(
        /did not answer within the query timeout|Cannot reach PostgreSQL/,
      );
    }

    // The connection that was open when the network stopped is the one whose statement timed out.
    expect(
      probe.value.some((settled) =>
        /did not answer within the query timeout/.test(String((settled as PromiseRejectedResult).reason)),
      ),
    ).toBe(true);

    proxy.heal();
    // The connections that timed out were dropped: new ones carry the next calls.
    expect((await pad.read('s1', 'before')).content).toBe('written before the partition');
    await pad.write('s1', 'after', 'written once the network was back');
    expect((await pad.read('s1', 'after')).content).toBe('written once the network was back');
    await pad.close();
  }, 30_000);
});
