import { configFilePath } from 'llm-scratchpad/extension';
import { ScratchpadError } from 'llm-scratchpad';
import { runtimeError } from '../runtime-errors.js';

/** Where a provider call went: used to say which host failed and how to configure another. */
export interface ProviderEndpoint {
  /** Display name: `Ollama`, `the OpenAI-compatible server`, `Anthropic`. */
  label: string;
  /** The base URL that was tried. */
  baseURL: string;
  /** The environment variable that points the provider to another host. */
  hostEnv: string;
  /** The environment variable that holds the API key, when the provider uses one. */
  apiKeyEnv?: string;
  model: string;
  /** The config file named in hints (default: {@link configFilePath} of `process.env`). */
  configPath?: string;
}

/** An HTTP error answer, as extracted from the provider's SDK error. */
export interface HttpFailure {
  status: number;
  /** The provider's own error message. */
  message: string;
  body?: unknown;
}

const CONNECTION_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer in time',
  UND_ERR_BODY_TIMEOUT: 'no answer in time',
  ECONNRESET: 'connection reset',
  UND_ERR_SOCKET: 'connection closed by the server',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed by the server',
  ECONNABORTED: 'connection aborted',
};

/**
 * Why `error` is a failure to reach the server (refused, DNS, timeout, reset), or `undefined` when it is not.
 * Walks the `cause` chain and `AggregateError.errors`, where Node's fetch and the SDKs put the system error.
 */
function connectionFailureReason(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  const visit = (value: unknown): string | undefined => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return undefined;
    seen.add(value);
    const record = value as { code?: unknown; name?: unknown; cause?: unknown; errors?: unknown };
    if (typeof record.code === 'string' && CONNECTION_CODES[record.code])
      return CONNECTION_CODES[record.code];
    if (record.name === 'TimeoutError') return 'no answer in time';
    for (const inner of Array.isArray(record.errors) ? record.errors : []) {
      const reason = visit(inner);
      if (reason) return reason;
    }
    return visit(record.cause);
  };
  return visit(error);
}

/**
 * Turns an error thrown by a provider's client into a `ScratchpadError`: `PROVIDER_UNREACHABLE` when the host
 * could not be reached (the message names it, the hint says how to point elsewhere), `PROVIDER_ERROR` for an
 * HTTP error answer (status and the provider's message) or any other failure of the call. `unreachableReason` is
 * the provider's own verdict when its SDK classified the error as a connection failure (the SDKs' error
 * classes, which carry no system error code on a timeout).
 */
export function toProviderError(
  error: unknown,
  endpoint: ProviderEndpoint,
  http?: HttpFailure,
  unreachableReason?: string,
): ScratchpadError {
  if (ScratchpadError.isInstance(error)) return error;
  if (http) {
    return runtimeError(
      'PROVIDER_ERROR',
      `${capitalize(endpoint.label)} answered HTTP ${http.status} for model ${endpoint.model} at ${endpoint.baseURL}: ${http.message}`,
      {
        hint: statusHint(http.status, endpoint),
        details: { status: http.status, baseURL: endpoint.baseURL, model: endpoint.model, body: http.body },
        cause: error,
      },
    );
  }
  const reason = connectionFailureReason(error) ?? unreachableReason;
  if (reason) {
    return runtimeError(
      'PROVIDER_UNREACHABLE',
      `Cannot reach ${endpoint.label} at ${endpoint.baseURL} (${reason}).`,
      {
        hint: `Start the server or point to another host: set ${endpoint.hostEnv}, or base_url under [runtime.llm.<tier>] in ${endpoint.configPath ?? configFilePath()}.`,
        details: { baseURL: endpoint.baseURL, model: endpoint.model, reason },
        cause: error,
      },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return runtimeError(
    'PROVIDER_ERROR',
    `The call to ${endpoint.label} at ${endpoint.baseURL} failed: ${message}`,
    {
      hint: 'Check that the server speaks the expected API and that the model supports tool calling.',
      details: { baseURL: endpoint.baseURL, model: endpoint.model },
      cause: error,
    },
  );
}

/**
 * The error of a request cut by its deadline: `PROVIDER_UNREACHABLE` that names the host, the model and the
 * limit, and says how to raise it.
 */
export function requestTimeoutError(
  endpoint: ProviderEndpoint,
  timeoutMs: number,
  cause: unknown,
): ScratchpadError {
  const seconds = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 100) / 10} s` : `${timeoutMs} ms`;
  return runtimeError(
    'PROVIDER_UNREACHABLE',
    `${capitalize(endpoint.label)} at ${endpoint.baseURL} gave no answer in time for model ${endpoint.model}: ` +
      `the request was stopped after ${seconds} (timeout_ms = ${timeoutMs}).`,
    {
      hint: `The model may still be loading or the server may be overloaded: retry, use a smaller model, or raise timeout_ms under [runtime.llm.<tier>] in ${endpoint.configPath ?? configFilePath()}.`,
      details: { baseURL: endpoint.baseURL, model: endpoint.model, reason: 'timeout', timeoutMs },
      cause,
    },
  );
}

function statusHint(status: number, endpoint: ProviderEndpoint): string {
  if (status === 401 || status === 403) {
    return endpoint.apiKeyEnv
      ? `Check the API key: set ${endpoint.apiKeyEnv}, or api_key_env under [runtime.llm.<tier>] in ${endpoint.configPath ?? configFilePath()}.`
      : 'Check the credentials the server expects.';
  }
  if (status === 404) {
    return endpoint.label === 'Ollama'
      ? `Pull the model first (ollama pull ${endpoint.model}) or choose another with model under [runtime.llm.<tier>].`
      : `Check the model name (${endpoint.model}) and the base URL (${endpoint.baseURL}).`;
  }
  if (status === 429)
    return 'The provider is rate limiting: wait and retry, or use another tier or provider.';
  if (status >= 500) return 'The provider failed on its side: retry later, or check the server logs.';
  return 'The provider rejected the request: check the model name and that the model supports tool calling.';
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
