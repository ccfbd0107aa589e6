import type { EnvironmentVariables } from './xdg-dirs.js';

/**
 * The only parent environment variables an executor sees. Everything else (API keys, tokens, `NODE_OPTIONS`,
 * proxy settings that may embed credentials) is dropped; pass explicit grants through `RunExecutorOptions.env`.
 */
export const EXECUTOR_ENVIRONMENT_ALLOWLIST: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'LC_MESSAGES',
  'LC_NUMERIC',
  'LC_TIME',
  'TZ',
  'TMPDIR',
  'TERM',
];

/** The allowlisted subset of `parent`, plus `grants` added as given. */
export function scrubEnvironment(
  parent: EnvironmentVariables,
  grants: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of EXECUTOR_ENVIRONMENT_ALLOWLIST) {
    const value = parent[name];
    if (value !== undefined) environment[name] = value;
  }
  return { ...environment, ...grants };
}
