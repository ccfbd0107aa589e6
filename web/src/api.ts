/** The inspector's API (docs/http-api.md), with the bearer token from the URL fragment when the server needs one. */

const TOKEN_KEY = 'scratchpad-ui-token';

/** Moves `#token=…` out of the address bar into the tab's session storage (never sent to the server in a URL). */
export function takeTokenFromUrl(): void {
  const match = /(?:^#|[#&])token=([^&]+)/.exec(location.hash);
  if (!match) return;
  sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(match[1] as string));
  history.replaceState(null, '', `${location.pathname}${location.search}#/`);
}

/** A failed request: the server's error code and message. */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const token = sessionStorage.getItem(TOKEN_KEY);
  return token ? { authorization: `Bearer ${token}`, ...extra } : extra;
}

async function failure(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string; hint?: string } };
    const message = [body.error?.message, body.error?.hint].filter(Boolean).join(' ');
    return new ApiError(response.status, body.error?.code ?? 'HTTP', message || response.statusText);
  } catch {
    return new ApiError(response.status, 'HTTP', response.statusText);
  }
}

/** GET an API path with query parameters (undefined ones left out). */
export async function get<T>(
  path: string,
  query: Record<string, string | number | boolean | undefined> = {},
  signal?: AbortSignal,
): Promise<T> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const qs = params.toString();
  const response = await fetch(`/api${path}${qs ? `?${qs}` : ''}`, {
    headers: headers(),
    signal: signal ?? null,
  });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

/** POST or DELETE a JSON body. */
export async function send<T>(method: 'POST' | 'DELETE', path: string, body: unknown): Promise<T> {
  const response = await fetch(`/api${path}`, {
    method,
    headers: headers({ 'content-type': 'application/json' }),
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

/** Polls `/api/changes` with its ETag; calls `onChange` when the store or the turn log changed. */
export function watchChanges(onChange: () => void, intervalMs = 2000): () => void {
  let etag: string | undefined;
  let stopped = false;
  let timer: number | undefined;
  const poll = async () => {
    try {
      const response = await fetch('/api/changes', {
        headers: headers(etag ? { 'if-none-match': etag } : {}),
      });
      if (response.status === 200) {
        const next = response.headers.get('etag') ?? undefined;
        if (etag !== undefined && next !== etag) onChange();
        etag = next;
      }
    } catch {
      // The server is gone or restarting: try again on the next tick.
    }
    if (!stopped) timer = window.setTimeout(poll, intervalMs);
  };
  void poll();
  return () => {
    stopped = true;
    window.clearTimeout(timer);
  };
}

export function entryPath(session: string, id: string): string {
  return `/sessions/${encodeURIComponent(session)}/entries/${encodeURIComponent(id)}`;
}
