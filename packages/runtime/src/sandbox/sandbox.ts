import type { SandboxCallFacts } from './sandbox-observation.js';

/**
 * How an executor call was isolated: `bubblewrap` (Linux namespaces), `off` (the user opted out with
 * `--no-sandbox` or `[runtime.sandbox] enabled = false`), or `unavailable` (no sandbox could be set up and the user
 * did not opt out: the call is refused).
 */
export type SandboxStatus = 'bubblewrap' | 'off' | 'unavailable';

/** One executor call, as a sandbox needs to see it. */
export interface SandboxRequest {
  /** Executor name (network grants are given by name). */
  name: string;
  /** Its capabilities: a `net:*` capability lets it use the network. */
  capabilities: readonly string[];
  /** The manifest's `entry` (see `resolveEntry`). */
  entry: readonly string[];
  /**
   * A private folder made for this call only (mode 0700); the sandbox may add files of its own in it. The caller
   * removes it after the call.
   */
  stagingDir: string;
  /** The verified copy of the executor's code, inside `stagingDir`: what runs. */
  codeDir: string;
  /** Working directory of the call (host path). */
  cwd: string;
  /** The already scrubbed environment of the call. */
  env: Readonly<Record<string, string>>;
}

/** How to start one call: a process to spawn, or why the call must not run. */
export type SandboxPlan =
  | {
      ok: true;
      command: string;
      args: string[];
      /** Working directory for `spawn` (the sandbox may move the executor into another one). */
      cwd: string;
      env: Record<string, string>;
      /** Whether the call can reach the network. */
      network: boolean;
      /** Files given to the process, opened read-only, as file descriptors {@link FIRST_INHERITED_FD}, … in this order. */
      inheritedFiles?: readonly string[];
      /**
       * Called once the process has exited: the facts the runner adds to the observation (write roots, limits
       * reached; `sandbox-observation.ts`). Also releases what the call held (its cgroup).
       */
      finish?: () => Promise<SandboxCallFacts>;
      /**
       * Run once the call has ended (its processes are gone): checks what it left behind and undoes what must not
       * stay. A reason means the call is reported as refused with it; `undefined`, nothing to report.
       */
      afterCall?: () => Promise<string | undefined>;
    }
  | { ok: false; reason: string };

/**
 * An operating-system boundary around executor calls. A backend turns a request into the command line that runs
 * it isolated (bubblewrap on Linux today; a `sandbox-exec` profile on macOS is a later backend). A backend never
 * runs anything itself: the executor runner spawns the plan and keeps its timeout, output cap and process-group
 * kill.
 */
export interface Sandbox {
  readonly status: SandboxStatus;
  /** One line for messages and logs: the backend and what it grants. */
  readonly description: string;
  plan(request: SandboxRequest): Promise<SandboxPlan>;
}

/** True when the executor declares a network capability (`net:http`, …). */
export function declaresNetwork(capabilities: readonly string[]): boolean {
  return capabilities.some((capability) => capability.startsWith('net:'));
}

/** The file descriptor of a plan's first inherited file (3 is the executor's content channel). */
export const FIRST_INHERITED_FD = 4;
