import { createHash } from 'node:crypto';
import type { Scratchpad } from '../service/scratchpad.js';
import type { ApiRoute } from './api-route.js';
import type { TurnIndex } from './turn-index.js';

/**
 * `GET /api/changes`: a fingerprint of the store's sessions (entries, bytes, last update) and of the turn log (bytes
 * indexed) as an ETag. Clients poll it with `If-None-Match` and get `304 Not Modified` until something changed.
 */
export function liveRoutes(scratchpad: Scratchpad, index: TurnIndex): ApiRoute[] {
  return [
    {
      method: 'GET',
      pattern: '/api/changes',
      async handle({ headers }) {
        await index.refresh();
        const sessions = await scratchpad.sessions();
        const hash = createHash('sha256');
        for (const info of sessions.sort((a, b) => (a.id < b.id ? -1 : 1))) {
          hash.update(`${info.id}\u0000${info.entries}\u0000${info.bytes}\u0000${info.updatedAt}\n`);
        }
        hash.update(`turns\u0000${index.indexedBytes}\u0000${index.turns().length}`);
        const etag = `"${hash.digest('hex').slice(0, 32)}"`;
        if (headers['if-none-match'] === etag) return { status: 304, headers: { etag } };
        return {
          headers: { etag },
          body: { etag, sessions: sessions.length, turns: index.turns().length },
        };
      },
    },
  ];
}
