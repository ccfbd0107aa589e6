import type { Scratchpad } from 'llm-scratchpad';
import { loadRuntimeConfig } from '../config/load-runtime-config.js';
import type { RuntimeConfig } from '../config/runtime-config.js';
import { loadCatalog } from '../executors/load-catalog.js';
import { ensureShippedExecutors } from '../executors/shipped-executors.js';
import type { EnvironmentVariables } from '../executors/xdg-dirs.js';
import { defaultMnestomePath, Mnestome } from '../mnestome/mnestome.js';
import { createTierModels } from '../tiers/tier-models.js';
import { loadTierPrompts } from '../tiers/tier-prompts.js';
import { builtinTasks } from './builtin-tasks.js';
import { createScheduler, type Scheduler } from './scheduler.js';
import { defaultSchedulerStatePath, SchedulerState } from './scheduler-state.js';

/** Options of {@link openScheduler}. */
export interface OpenSchedulerOptions {
  /** The runtime's config (for the `wise` tier of `synt_suggest`); default: the config file, else the defaults. */
  config?: RuntimeConfig;
  /** The store `gc` cleans (opened on first use). */
  scratchpad: () => Promise<Scratchpad>;
  env?: EnvironmentVariables;
  /** Default `$XDG_DATA_HOME/scratchpad/scheduler.sqlite`. */
  statePath?: string;
  /** Default `$XDG_DATA_HOME/scratchpad/mnestome.db`. */
  mnestomePath?: string;
}

/** An open scheduler with the built-in tasks, and its state file. */
export interface OpenScheduler {
  scheduler: Scheduler;
  state: SchedulerState;
  close(): void;
}

/**
 * The scheduler as `scratchpad scheduler` runs it: the state file, the built-in tasks over the mnestome, the
 * verified shipped catalog, the given store and (for `synt_suggest`) the configured `wise` tier. An invalid config
 * file is a `CONFIG_INVALID` before anything runs.
 */
export async function openScheduler(options: OpenSchedulerOptions): Promise<OpenScheduler> {
  const env = options.env ?? process.env;
  const config = options.config ?? (await loadRuntimeConfig({ env }));
  const tiers = createTierModels(config, { prompts: await loadTierPrompts(config), env });
  const state = SchedulerState.open(options.statePath ?? defaultSchedulerStatePath(env));
  try {
    const scheduler = await createScheduler({
      state,
      tasks: builtinTasks({
        openMnestome: () => Mnestome.open(options.mnestomePath ?? defaultMnestomePath(env)),
        loadCatalog: async () => {
          const shipped = await ensureShippedExecutors({ env });
          const catalog = await loadCatalog({
            dirs: [shipped.executorsDir],
            trustedKeys: shipped.trustedKeys,
          });
          return catalog.executors;
        },
        scratchpad: options.scratchpad,
        ...(config.llm.wise ? { wise: () => tiers.get('wise') } : {}),
      }),
    });
    return { scheduler, state, close: () => state.close() };
  } catch (error) {
    state.close();
    throw error;
  }
}
