import { resolve } from 'node:path';
import { createScratchpad, type Scratchpad } from 'llm-scratchpad';
import { defaultDatabasePath, openStore } from 'llm-scratchpad';
import { localStorePaths, parseStoreUrl } from 'llm-scratchpad/extension';
import { loadRuntimeConfig } from '../config/load-runtime-config.js';
import type { ModelOverrides } from '../config/resolve-model.js';
import type { Tier } from '../config/runtime-config.js';
import { loadCatalog } from '../executors/load-catalog.js';
import { ensureShippedExecutors } from '../executors/shipped-executors.js';
import { scratchpadConfigDir, scratchpadDataDir } from 'llm-scratchpad/extension';
import { defaultMnestomePath, Mnestome } from '../mnestome/mnestome.js';
import { createSandbox } from '../sandbox/create-sandbox.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { createTierModels } from '../tiers/tier-models.js';
import { loadTierPrompts } from '../tiers/tier-prompts.js';
import { createModelJudge } from '../vaglio/model-judge.js';
import { createVaglio } from '../vaglio/vaglio.js';
import { type RunTurnOptions, runTurn, type TurnResult } from './run-turn.js';

/** Options of {@link runQuery}: what `scratchpad run` exposes. */
export interface RunQueryOptions extends ModelOverrides {
  query: string;
  tier?: Tier;
  /** Config file (default `$XDG_CONFIG_HOME/scratchpad/config.toml`). */
  configPath?: string;
  /** More executor folders to load after the shipped ones (each signed by a trusted key). */
  executorDirs?: string[];
  /**
   * The scratchpad to use (default: the store named by `store`, else the default SQLite file). `store` also names
   * the files the sandbox hides from executors when `scratchpad` is passed.
   */
  scratchpad?: Scratchpad;
  store?: string;
  /**
   * `false` runs executors without the operating-system sandbox (`--no-sandbox`); default: the config file's
   * `[runtime.sandbox] enabled`, else on.
   */
  sandbox?: boolean;
  /** `--write-root`: more folders executors may write in, added to `[runtime.sandbox] write_roots`. */
  writeRoots?: string[];
  /** The working directory (a write root of the sandbox); default `process.cwd()`. */
  cwd?: string;
  session?: string;
  scratchpadStyle?: RunTurnOptions['scratchpadStyle'];
  think?: boolean;
  env?: NodeJS.ProcessEnv;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** `--mode`: overrides `[runtime] mode`. */
  mode?: RunTurnOptions['mode'];
  /** Progress, as it happens. */
  onEvent?: RunTurnOptions['onEvent'];
  /** The mnestome file (default `$XDG_DATA_HOME/scratchpad/mnestome.db`). */
  mnestomePath?: string;
}

/** What {@link runQuery} returns: the turn, and the sandbox its executors ran in. */
export interface RunQueryResult extends TurnResult {
  sandbox: Pick<Sandbox, 'status' | 'description'>;
}

/**
 * One turn from a query, the way `scratchpad run` does it: reads the config, builds the tiers (the planning one
 * and, when `[runtime.summaries]` is on, the summarizing one at once) and the vaglio with the configured judge,
 * installs and signs the shipped executors on first use, loads and verifies the catalog, sets up the sandbox
 * (bubblewrap; every executor call runs in it) and runs the turn in its mode. An invalid config file or a refused write root throws `CONFIG_INVALID` (nothing has run yet); every
 * failure after that ends the turn with a structured result.
 */
export async function runQuery(options: RunQueryOptions): Promise<RunQueryResult> {
  const env = options.env ?? process.env;
  const config = await loadRuntimeConfig({
    ...(options.configPath ? { path: options.configPath } : {}),
    env,
  });
  const tier = options.tier ?? 'fast';
  const tiers = createTierModels(config, {
    prompts: await loadTierPrompts(config),
    env,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    overrides: {
      ...(options.provider ? { provider: options.provider } : {}),
      ...(options.model ? { model: options.model } : {}),
    },
    overriddenTier: tier,
  });
  // The planning tier is built now, so a configuration mistake fails before anything runs.
  const { model } = tiers.get(tier);
  // `[runtime.summaries]`: its tier is built now too, for the same reason.
  if (config.summaries.enabled) tiers.get(config.summaries.tier);
  const vaglio = createVaglio({
    env,
    judge: config.vaglio.judge,
    maxJudgeCallsPerTurn: config.vaglio.maxJudgeCallsPerTurn,
    ...(config.vaglio.judge === 'rules'
      ? {}
      : { modelJudge: createModelJudge({ tier: () => tiers.get('middle') }) }),
  });
  const shipped = await ensureShippedExecutors({ env });
  const catalog = await loadCatalog({
    dirs: [shipped.executorsDir, ...(options.executorDirs ?? [])],
    trustedKeys: shipped.trustedKeys,
  });
  const storeUrl = options.store || env.SCRATCHPAD_STORE || `sqlite:${defaultDatabasePath(env)}`;
  const cwd = options.cwd ?? process.cwd();
  const sandbox = await createSandbox({
    settings: {
      ...config.sandbox,
      enabled: config.sandbox.enabled && options.sandbox !== false,
      writeRoots: [...config.sandbox.writeRoots, ...(options.writeRoots ?? [])],
    },
    cwd,
    env,
    scratchpadPaths: [
      scratchpadConfigDir(env),
      scratchpadDataDir(env),
      shipped.executorsDir,
      ...(options.executorDirs ?? []).map((dir) => resolve(dir)),
      ...localStorePaths(parseStoreUrl(storeUrl)).map((path) => resolve(path)),
    ],
  });
  let mnestome: Mnestome | undefined;
  const ownsStore = options.scratchpad === undefined;
  const scratchpad = options.scratchpad ?? createScratchpad({ driver: await openStore(storeUrl) });
  try {
    const turn = await runTurn({
      query: options.query,
      model,
      executors: catalog.executors,
      discarded: catalog.discarded,
      scratchpad,
      session: options.session ?? env.SCRATCHPAD_SESSION ?? 'default',
      vaglio,
      capSteps: config.capSteps,
      capSameExecutor: config.capSameExecutor,
      mode: options.mode ?? config.mode,
      tiers,
      tier,
      hybrid: config.hybrid,
      escalateTier: config.escalateTier,
      scratchpadTtlSeconds: config.scratchpadTtlSeconds,
      summaries: config.summaries,
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      mnestome: () => {
        mnestome ??= Mnestome.open(options.mnestomePath ?? defaultMnestomePath(env));
        return mnestome;
      },
      env,
      // The tier's own `think` is already the model's default (resolveModel); a call-level flag overrides it.
      ...(options.think === undefined ? {} : { think: options.think }),
      ...(options.scratchpadStyle ? { scratchpadStyle: options.scratchpadStyle } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      executorOptions: {
        sandbox,
        cwd,
        parentEnv: env,
        maxContentBytes: config.maxStoredBytes,
        localNetwork: config.sandbox.localNetwork,
      },
    });
    return { ...turn, sandbox: { status: sandbox.status, description: sandbox.description } };
  } finally {
    mnestome?.close();
    if (ownsStore) await scratchpad.close();
  }
}
