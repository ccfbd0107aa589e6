import { join } from 'node:path';
import type { Executor } from '../../executors/executor.js';
import { loadCatalog } from '../../executors/load-catalog.js';
import { ensureShippedExecutors } from '../../executors/shipped-executors.js';

/** A throwaway home for the sandbox's tests: the calls' environment and the shipped executors installed in it. */
export interface SandboxTestHome {
  /** A minimal PATH, HOME and the XDG folders inside `home`. */
  env: Record<string, string>;
  /** Scratchpad's config and data folders of that home: what `runQuery` hides (`createSandbox`'s `scratchpadPaths`). */
  scratchpadPaths: string[];
  /** The shipped executors, installed and signed in that home, by name. */
  executors: Map<string, Executor>;
}

/** Installs the shipped executors in `home` (created when missing) and returns what the sandbox tests run with. */
export async function sandboxTestHome(home: string): Promise<SandboxTestHome> {
  const env = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CONFIG_HOME: join(home, '.config'),
  };
  const installed = await ensureShippedExecutors({ env });
  const catalog = await loadCatalog({ dirs: [installed.executorsDir], trustedKeys: installed.trustedKeys });
  return {
    env,
    scratchpadPaths: [join(home, '.config', 'scratchpad'), join(home, '.local', 'share', 'scratchpad')],
    executors: new Map(catalog.executors.map((executor) => [executor.name, executor])),
  };
}
