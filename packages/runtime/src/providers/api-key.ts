import { configFilePath } from 'llm-scratchpad/extension';
import { ScratchpadError } from 'llm-scratchpad';
import { isLocalHost } from './local-host.js';

/** The key sent to local servers that need none (the SDKs refuse to run without one). */
const LOCAL_API_KEY = 'not-needed';

/**
 * The API key to use for `baseURL`: the given key, else the one in `env[apiKeyEnv]`, else {@link LOCAL_API_KEY}
 * for a local or private host. A remote host without a key is a `CONFIG_INVALID` that names the variable to set.
 */
export function resolveApiKey(options: {
  apiKey: string | undefined;
  apiKeyEnv: string;
  env: Readonly<Record<string, string | undefined>>;
  baseURL: string;
  label: string;
}): string {
  const key = options.apiKey || options.env[options.apiKeyEnv];
  if (key) return key;
  if (isLocalHost(options.baseURL)) return LOCAL_API_KEY;
  throw new ScratchpadError('CONFIG_INVALID', `No API key for ${options.label} at ${options.baseURL}.`, {
    hint: `Set ${options.apiKeyEnv} (or name another variable with api_key_env under [runtime.llm.<tier>] in ${configFilePath(options.env)}), or point base_url to a local server.`,
    details: { baseURL: options.baseURL, apiKeyEnv: options.apiKeyEnv },
  });
}
