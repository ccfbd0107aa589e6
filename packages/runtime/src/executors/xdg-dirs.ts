import { join } from 'node:path';
import { scratchpadConfigDir, scratchpadDataDir } from 'llm-scratchpad/extension';

/** Environment variables as read by the executor and vaglio modules (a subset of `process.env`). */
export type EnvironmentVariables = Readonly<Record<string, string | undefined>>;

/** Where signing keys live: `<config dir>/keys`. */
export function defaultKeyDir(env: EnvironmentVariables = process.env): string {
  return join(scratchpadConfigDir(env), 'keys');
}

/** Where shipped executors are installed and signed on first use: `<data dir>/executors`. */
export function defaultExecutorsDir(env: EnvironmentVariables = process.env): string {
  return join(scratchpadDataDir(env), 'executors');
}
