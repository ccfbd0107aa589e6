import { randomBytes } from 'node:crypto';
import { createServer, type Server, Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeEventLoop, TEST_STALL_BOUND_MS } from '../../../test/support/event-loop-probe.js';
import { requireTestServer } from '../../../test/support/require-postgres.js';
import { ScratchpadError } from '../../core/errors.js';
import { createScratchpad } from '../../service/scratchpad.js';
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

describe('PostgreSQL statements that run longer than the query timeout', () => {
  it('are cancelled by the server: the call fails with STORE_UNAVAILABLE, nothing is kept, the pool goes on', async () => {
    const slowSchema = `${schema}_slow`;
    const driver = await createPostgresDriver({
      connectionString: url,
      schema: slowSchema,
      queryTimeoutMs: QUERY_TIMEOUT_MS,
    });
    const pad = createScratchpad({ driver });
    const holder = await admin.connect();
    try {
      await pad.write('s1', 'first', 'makes the session row');
      // Another client holds the session's row: the write waits for its lock until the server cancels it.
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM "${slowSchema}".sessions WHERE id = 's1' FOR UPDATE`);
      const started = Date.now();
      const failed = await pad.write('s1', 'blocked', 'never kept').then(
        () => undefined,
        (error: unknown) => error,
      );
      const elapsed = Date.now() - started;
      expect(ScratchpadError.hasCode(failed, 'STORE_UNAVAILABLE')).toBe(true);
      expect((failed as Error).message).toMatch(/cancelled a statement .* nothing it did was kept/);
      expect(elapsed).toBeGreaterThanOrEqual(QUERY_TIMEOUT_MS - 50);
      // Before the driver would have given up (a second later): the server's cancellation answered it.
      expect(elapsed).toBeLessThan(QUERY_TIMEOUT_MS + 1_000);
      await holder.query('ROLLBACK');
      expect(await pad.find('s1', 'blocked')).toBeUndefined();
      await pad.write('s1', 'after', 'written once the lock was gone');
      expect((await pad.read('s1', 'after')).content).toBe('written once the lock was gone');
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      holder.release();
      await pad.close();
      await admin.query(`DROP SCHEMA IF EXISTS "${slowSchema}" CASCADE`);
    }
  }, 30_000);

  it('never bound a schema migration: one that waits longer than the timeout for its lock still completes', async () => {
    const fresh = `${schema}_migrate`;
    const holder = await admin.connect();
    try {
      // Another process migrating the same schema holds its lock longer than the query timeout.
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `agent-scratchpad:${fresh}`,
      ]);
      const started = Date.now();
      const opening = createPostgresDriver({ connectionString: url, schema: fresh, queryTimeoutMs: 300 });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await holder.query('ROLLBACK');
      const driver = await opening;
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
      const pad = createScratchpad({ driver });
      await pad.write('s1', 'migrated', 'after the wait');
      expect((await pad.read('s1', 'migrated')).content).toBe('after the wait');
      await pad.close();
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      holder.release();
      await admin.query(`DROP SCHEMA IF EXISTS "${fresh}" CASCADE`);
    }
  }, 30_000);

  it('refuses a query timeout that is not a whole number of milliseconds >= 1', async () => {
    for (const queryTimeoutMs of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      const refused = await createPostgresDriver({ connectionString: url, schema, queryTimeoutMs }).then(
        async (driver) => {
          await driver.close();
          return undefined;
        },
        (error: unknown) => error,
      );
      expect(ScratchpadError.hasCode(refused, 'CONFIG_INVALID'), String(queryTimeoutMs)).toBe(true);
    }
  });
});
