import type { QueryParams } from './query-params.js';

/** One API request after the guard: its path parameters, query and (for POST/DELETE) parsed JSON body. */
export interface ApiRequest {
  params: Record<string, string>;
  query: QueryParams;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

/** What a handler answers: a JSON body, and optionally a status and headers (`304` sends no body). */
export interface ApiReply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A route: a method, a path pattern with `:name` segments, and its handler. */
export interface ApiRoute {
  method: 'GET' | 'POST' | 'DELETE';
  pattern: string;
  handle(request: ApiRequest): Promise<ApiReply>;
}

/** Matches a path against a pattern; path segments are URL-decoded. Undefined when it does not match. */
export function matchRoute(pattern: string, path: string): Record<string, string> | undefined {
  const wanted = pattern.split('/');
  const given = path.split('/');
  if (wanted.length !== given.length) return undefined;
  const params: Record<string, string> = {};
  for (let index = 0; index < wanted.length; index += 1) {
    const part = wanted[index] as string;
    const actual = given[index] as string;
    if (part.startsWith(':')) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(actual);
      } catch {
        return undefined;
      }
      if (decoded.length === 0) return undefined;
      params[part.slice(1)] = decoded;
    } else if (part !== actual) {
      return undefined;
    }
  }
  return params;
}
