import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ScratchpadError } from '../core/errors.js';
import { type HttpAddress, urlHost } from './http-address.js';

/** Starts `server` listening on `address`; resolves with the port actually bound (for port 0). */
export function listen(server: Server, address: HttpAddress): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) =>
      reject(
        new ScratchpadError(
          'CONFIG_INVALID',
          `Cannot listen on ${urlHost(address.host)}:${address.port}: ${error.message}`,
          {
            hint:
              error.code === 'EADDRINUSE'
                ? 'The port is taken: pick another one (or 0 for a free one).'
                : 'Check the host: it must be an address of this machine.',
            cause: error,
          },
        ),
      );
    server.once('error', onError);
    server.listen(address.port, address.host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
