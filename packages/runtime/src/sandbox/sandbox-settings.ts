import { type CallLimits, DEFAULT_CALL_LIMITS } from './call-limits.js';

/** The `[runtime.sandbox]` section of `config.toml`. */
export interface SandboxSettings {
  /** `enabled`: false runs executors without a sandbox (as `--no-sandbox` does). Default true. */
  enabled: boolean;
  /** `bwrap`: the bubblewrap binary (default `$SCRATCHPAD_BWRAP`, else `/usr/bin/bwrap`). */
  bwrapPath?: string;
  /** `write_roots`: folders executors may write in besides the working directory (`~/` = the home folder). */
  writeRoots: string[];
  /** `hide`: more protected locations, hidden in every call (absolute, or `~/` for the home folder). */
  hide: string[];
  /** `network`: executors given the network although their manifest declares no `net:*` capability. */
  network: string[];
  /**
   * `local_network`: executors that may connect to this machine's own addresses (loopback, link-local), which
   * web_fetch refuses otherwise. Default none.
   */
  localNetwork: string[];
  /** `memory_mb`, `processes`, `file_size_mb`: the limits of each call. */
  limits: CallLimits;
}

/** The settings when the section is absent: sandbox on, nothing more granted or hidden. */
export function defaultSandboxSettings(): SandboxSettings {
  return {
    enabled: true,
    writeRoots: [],
    hide: [],
    network: [],
    localNetwork: [],
    limits: { ...DEFAULT_CALL_LIMITS },
  };
}

/** Environment variable naming the bubblewrap binary (overrides the config file). */
export const BUBBLEWRAP_PATH_VARIABLE = 'SCRATCHPAD_BWRAP';
