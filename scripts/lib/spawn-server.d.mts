import type { ChildProcess } from 'node:child_process';

/** Options of {@link spawnServer}. */
export interface SpawnServerOptions {
  /** What errors call the process (`server` by default). */
  name?: string;
  cwd?: string;
  /** The child's whole environment (`process.env` by default). */
  env?: NodeJS.ProcessEnv;
  /** How long the process may take to print its URL (60 s by default). */
  startTimeoutMs?: number;
}

/**
 * Spawns `node ...args` and returns the child at once, with `url`: the URL it prints on stderr when it serves
 * (`… at http://host:port/mcp`). `url` rejects with what it printed when the child exits first or prints none in
 * time; the child is the caller's to kill.
 */
export function spawnServer(args: string[], options?: SpawnServerOptions): { child: ChildProcess; url: Promise<string> };
