import { useEffect, useState } from 'preact/hooks';

/** A view and its parameters, from the URL fragment: `#/entries/S`, `#/entry/S/ID?line=N`, `#/turns`, … */
export type Route =
  | { view: 'entries'; session?: string }
  | { view: 'entry'; session: string; id: string; line?: number }
  | { view: 'turns'; session?: string }
  | { view: 'turn'; id: string }
  | { view: 'context'; session?: string };

export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#\/?/, '').split('?');
  const parts = path.split('/').map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  });
  const params = new URLSearchParams(query);
  const session = parts[1] || undefined;
  switch (parts[0]) {
    case 'entry':
      if (parts[1] && parts[2]) {
        const line = Number(params.get('line'));
        return {
          view: 'entry',
          session: parts[1],
          id: parts[2],
          ...(Number.isSafeInteger(line) && line > 0 ? { line } : {}),
        };
      }
      return { view: 'entries' };
    case 'turns':
      return session ? { view: 'turns', session } : { view: 'turns' };
    case 'turn':
      return parts[1] ? { view: 'turn', id: parts[1] } : { view: 'turns' };
    case 'context':
      return session ? { view: 'context', session } : { view: 'context' };
    default:
      return session ? { view: 'entries', session } : { view: 'entries' };
  }
}

export function href(route: Route): string {
  const e = encodeURIComponent;
  switch (route.view) {
    case 'entry':
      return `#/entry/${e(route.session)}/${e(route.id)}${route.line ? `?line=${route.line}` : ''}`;
    case 'turn':
      return `#/turn/${e(route.id)}`;
    default:
      return `#/${route.view}${'session' in route && route.session ? `/${e(route.session)}` : ''}`;
  }
}

/** The current route, following `hashchange`. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.hash));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}
