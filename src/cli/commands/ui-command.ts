import { join } from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { nonNegativeInteger } from '../parse-number.js';

interface UiFlags {
  host: string;
  port: number;
  turns?: string;
  tokenFile?: string;
  allowedHost: string[];
}

/** Default port of `scratchpad ui`. */
const DEFAULT_UI_PORT = 8770;

/**
 * `scratchpad ui [--port P] [--host H] [--turns DIR] [--token-file F] [--allowed-host H]…`: the local web inspector
 * for sessions, entries, turns and context use (docs/http-api.md for its API).
 */
export function registerUiCommand(program: Command, context: CliContext): void {
  program
    .command('ui')
    .description('serve a local web inspector for sessions, entries, turns and context use')
    .option(
      '--host <host>',
      'address to listen on (loopback by default; elsewhere a token is required)',
      '127.0.0.1',
    )
    .option(
      '--port <port>',
      `port (default ${DEFAULT_UI_PORT}; 0 picks a free one)`,
      nonNegativeInteger,
      DEFAULT_UI_PORT,
    )
    .option('--turns <dir>', 'turn log directory (default $XDG_DATA_HOME/scratchpad/turns)')
    .option(
      '--token-file <file>',
      'require this bearer token (env SCRATCHPAD_TOKEN); off loopback one is made if absent',
    )
    .option(
      '--allowed-host <name>',
      'also accept this Host/Origin name (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .action(async (flags: UiFlags) => {
      const [{ serveUi }, { loadToken }, { scratchpadDataDir }] = await Promise.all([
        import('../../ui/serve-ui.js'),
        import('../../http/bearer-token.js'),
        import('../../core/xdg.js'),
      ]);
      const token = loadToken({
        ...(flags.tokenFile === undefined ? {} : { tokenFile: flags.tokenFile }),
        env: context.env,
      });
      const scratchpad = await context.scratchpad();
      const server = await serveUi({
        scratchpad,
        turnLogDir: flags.turns ?? join(scratchpadDataDir(context.env), 'turns'),
        address: { host: flags.host, port: flags.port },
        allowedHosts: flags.allowedHost,
        ...(token === undefined ? {} : { token }),
        log: (message) => context.stderr.write(`${message}\n`),
      });
      context.stdout.write(
        `scratchpad ui: open ${server.url}${server.token && token === undefined ? '  (the token is new for this run)' : ''}\n`,
      );
      const others = server.urls.slice(1);
      if (others.length > 0) {
        context.stdout.write(
          `scratchpad ui: listening on every interface (${flags.host}); from other machines open ${others.join(' or ')}\n`,
        );
      }
      await new Promise<void>((resolve) => {
        const stop = () => void server.close().then(resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
