import { clipStrings } from '../core/clip-strings.js';
import type { Scratchpad } from '../service/scratchpad.js';
import type { ApiRoute } from './api-route.js';
import type { SearchHit } from './api-types.js';
import { summarizeEntry } from './entry-summary.js';

/** Most sessions one reply lists (most recently updated first). */
const MAX_SESSIONS = 2000;
/** Most entries one reply lists. */
const MAX_LIST_ENTRIES = 500;
/** Most sessions a store-wide search looks into (most recently updated first). */
const MAX_SEARCH_SESSIONS = 50;
const MAX_SNIPPET_CHARS = 400;

/** Sessions, the entries of one, and full-text search. */
export function sessionRoutes(scratchpad: Scratchpad): ApiRoute[] {
  return [
    {
      method: 'GET',
      pattern: '/api/sessions',
      async handle() {
        const sessions = (await scratchpad.sessions()).sort((a, b) => b.updatedAt - a.updatedAt);
        return {
          body: { sessions: sessions.slice(0, MAX_SESSIONS), truncated: sessions.length > MAX_SESSIONS },
        };
      },
    },
    {
      method: 'GET',
      pattern: '/api/sessions/:session/entries',
      async handle({ params, query }) {
        const limit = query.integer('limit', 200, 1, MAX_LIST_ENTRIES);
        // Without orderBy, a cursor goes on in the order it was made for.
        const orderBy =
          query.text('orderBy', 20) === undefined
            ? undefined
            : query.choice('orderBy', ['name', 'createdAt', 'updatedAt'] as const, 'name');
        const prefix = query.text('prefix', 1000);
        const turn = query.text('turn', 200);
        const cursor = query.text('cursor', 1000);
        const page = await scratchpad.list(params.session as string, {
          limit,
          ...(orderBy === undefined ? {} : { orderBy }),
          ...(prefix === undefined ? {} : { prefix }),
          ...(turn === undefined ? {} : { turn }),
          ...(cursor === undefined ? {} : { cursor }),
        });
        return {
          body: {
            entries: page.entries.map(summarizeEntry),
            ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
            truncated: page.nextCursor !== undefined,
          },
        };
      },
    },
    {
      method: 'GET',
      pattern: '/api/search',
      async handle({ query }) {
        const q = query.requiredText('q', 1000);
        const limit = query.integer('limit', 20, 1, 100);
        const session = query.text('session', 1000);
        const sessions =
          session !== undefined
            ? [session]
            : (await scratchpad.sessions())
                .sort((a, b) => b.updatedAt - a.updatedAt)
                .slice(0, MAX_SEARCH_SESSIONS)
                .map((info) => info.id);
        const hits: SearchHit[] = [];
        const indexing = [];
        for (const id of sessions) {
          const found = await scratchpad.search(id, q, { limit });
          if (found.indexing) indexing.push({ session: id, ...found.indexing });
          for (const hit of found.hits) {
            hits.push({
              entry: summarizeEntry(hit.entry),
              score: hit.score,
              snippet: clipStrings(hit.snippet, MAX_SNIPPET_CHARS) as string,
            });
          }
        }
        hits.sort((a, b) => b.score - a.score);
        const body = { query: q, hits: hits.slice(0, limit), sessionsSearched: sessions.length };
        // Sessions whose full-text index is still being built: their hits come from the part indexed so far.
        return { body: indexing.length > 0 ? { ...body, indexing } : body };
      },
    },
  ];
}
