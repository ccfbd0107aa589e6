import type { Command } from 'commander';
import type { loadStoreDefaults, StoreDefaults } from '../config/store-defaults.js';
import { ScratchpadError } from '../core/errors.js';
import type { assertValidSession } from '../core/names.js';
import type { Scratchpad } from '../service/scratchpad.js';
import type { defaultDatabasePath, openStore } from '../stores/open-store.js';

/** The global options every command shares. */
export interface GlobalOptions {
  db?: string;
  store?: string;
  session: string;
  json: boolean;
  /** False with `--no-redact` or `SCRATCHPAD_REDACT=off`: models see secrets in tool results as they are. */
  redact: boolean;
}

/** What a command needs: the parsed globals, an output sink and a lazily opened scratchpad. */
export interface CliContext {
  options: GlobalOptions;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  /** Opens the store named by `--store`/`--db`/env (once). */
  scratchpad(): Promise<Scratchpad>;
  /** The store URL in use, for messages. */
  storeUrl(): string;
  /** Writes a line (or JSON when `--json`). */
  print(human: string, json?: unknown): void;
  /** Marks the run as failed (exit 1) after a command printed its own report. */
  fail(): void;
  readonly exitCode: number;
  /**
   * Loads what resolving the options and opening the store need (the config file reader, the store opener); the
   * CLI awaits it before a command runs.
   */
  load(): Promise<void>;
  close(): Promise<void>;
}

/** What {@link CliContext.load} imports. */
interface LoadedModules {
  loadStoreDefaults: typeof loadStoreDefaults;
  assertValidSession: typeof assertValidSession;
  defaultDatabasePath: typeof defaultDatabasePath;
  openStore: typeof openStore;
}

/** Builds the context from the root command's options. */
export function createCliContext(
  program: Command,
  io: {
    stdout: NodeJS.WritableStream;
    stderr: NodeJS.WritableStream;
    stdin: NodeJS.ReadableStream;
    env: NodeJS.ProcessEnv;
  },
): CliContext {
  let opened: Promise<Scratchpad> | undefined;
  let exitCode = 0;
  let defaults: StoreDefaults | undefined;
  let modules: LoadedModules | undefined;
  const loaded = (): LoadedModules => {
    if (modules === undefined) throw new Error('the CLI context was used before load()');
    return modules;
  };
  // Read once, when a command first needs them (a broken config.toml fails the commands that use the store).
  const storeDefaults = (): StoreDefaults => {
    defaults ??= loaded().loadStoreDefaults(io.env);
    return defaults;
  };
  const options = (): GlobalOptions => {
    const raw = program.opts<{
      db?: string;
      store?: string;
      session?: string;
      json?: boolean;
      redact?: boolean;
    }>();
    return {
      ...(raw.db ? { db: raw.db } : {}),
      ...(raw.store ? { store: raw.store } : {}),
      // A flag wins over its environment variable, which wins over config.toml's [store] session.
      session: loaded().assertValidSession(
        raw.session ?? (io.env.SCRATCHPAD_SESSION || undefined) ?? storeDefaults().session ?? 'default',
      ),
      json: raw.json ?? false,
      redact: raw.redact !== false && io.env.SCRATCHPAD_REDACT !== 'off',
    };
  };
  const storeUrl = (): string => {
    // A flag wins over its environment variable; SCRATCHPAD_STORE over SCRATCHPAD_DB.
    const { store, db } = options();
    if (store && db) {
      throw new ScratchpadError('INVALID_ARGUMENT', 'Give --store or --db, not both.', {
        hint: '--db PATH is the same as --store sqlite:PATH.',
      });
    }
    if (store) return store;
    if (db) return `sqlite:${db}`;
    if (io.env.SCRATCHPAD_STORE) return io.env.SCRATCHPAD_STORE;
    return `sqlite:${io.env.SCRATCHPAD_DB || loaded().defaultDatabasePath(io.env)}`;
  };
  const context: CliContext = {
    get options() {
      return options();
    },
    ...io,
    scratchpad() {
      opened ??= (async () => {
        const { defaultTtlSeconds, maxStoreBytes, maxSessionBytes } = storeDefaults();
        const config = {
          ...(defaultTtlSeconds === undefined ? {} : { defaultTtlMs: defaultTtlSeconds * 1000 }),
          ...(maxStoreBytes === undefined ? {} : { maxStoreBytes }),
          ...(maxSessionBytes === undefined ? {} : { maxSessionBytes }),
          ...(options().redact ? {} : { redaction: false as const }),
        };
        // Imported here, not above: commands that never open the store (and --help) do not load it.
        const { createScratchpad } = await import('../service/scratchpad.js');
        return createScratchpad({ driver: await loaded().openStore(storeUrl()), ...config });
      })();
      return opened;
    },
    storeUrl,
    print(human, json) {
      io.stdout.write(
        options().json
          ? `${JSON.stringify(json === undefined ? { message: human } : json, null, 2)}\n`
          : `${human}\n`,
      );
    },
    fail() {
      exitCode = 1;
    },
    get exitCode() {
      return exitCode;
    },
    async load() {
      // Imported here, not above: --help does not load them.
      if (modules !== undefined) return;
      const [storeDefaultsModule, names, stores] = await Promise.all([
        import('../config/store-defaults.js'),
        import('../core/names.js'),
        import('../stores/open-store.js'),
      ]);
      modules = {
        loadStoreDefaults: storeDefaultsModule.loadStoreDefaults,
        assertValidSession: names.assertValidSession,
        defaultDatabasePath: stores.defaultDatabasePath,
        openStore: stores.openStore,
      };
    },
    async close() {
      if (opened) await (await opened).close();
    },
  };
  return context;
}
