import { ScratchpadError } from '../core/errors.js';
import { TOKEN_ENVIRONMENT_VARIABLE } from './bearer-token.js';
import { isLoopbackHost } from './loopback.js';

/**
 * Refuses to serve beyond this machine without a token: a bind address that is not loopback (`0.0.0.0`, `::`, a
 * LAN address, a host name) needs one, since anyone who can reach the port could otherwise read and write.
 */
export function assertSafeBind(host: string, token: string | undefined, flag = '--http'): void {
  if (token !== undefined || isLoopbackHost(host)) return;
  throw new ScratchpadError(
    'CONFIG_INVALID',
    `Refusing to serve on ${host} without a token: every host that can reach it could read and write the scratchpad.`,
    {
      hint: `Give a token with --token-file FILE or ${TOKEN_ENVIRONMENT_VARIABLE} (e.g. openssl rand -hex 32 > FILE), or bind ${flag} to 127.0.0.1.`,
    },
  );
}
