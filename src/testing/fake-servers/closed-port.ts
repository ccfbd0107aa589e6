import { createServer } from 'node:net';

/**
 * `http://127.0.0.1:<port>` for a port that was free a moment ago and is now closed, so a client gets
 * "connection refused" (to test `PROVIDER_UNREACHABLE`).
 */
export async function closedPortURL(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
