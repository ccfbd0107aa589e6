import { ScratchpadError } from 'llm-scratchpad';

/** `value` as a URL, or a `CONFIG_INVALID` that says where the bad value may come from. */
export function parseBaseURL(value: string, hostEnv: string): URL {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {}
  throw new ScratchpadError('CONFIG_INVALID', `"${value}" is not a valid http(s) base URL.`, {
    hint: `Check base_url under [runtime.llm.<tier>] and the ${hostEnv} variable, e.g. http://127.0.0.1:8000/v1.`,
    details: { baseURL: value, hostEnv },
  });
}
