import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { get } from '../api.js';
import { formatBytes, formatCount, formatTime, formatTtl } from '../format.js';
import { href } from '../router.js';
import type { EntrySummary, SearchHit, SessionInfo } from '../types.js';

/** A session whose full-text index is still being built (`done` of `total` bytes). */
interface Indexing {
  session: string;
  done: number;
  total: number;
}

type SortKey =
  | 'name'
  | 'source'
  | 'turn'
  | 'kind'
  | 'bytes'
  | 'createdAt'
  | 'expiresAt'
  | 'pinned'
  | 'version';

const COLUMNS: Array<{ key: SortKey; label: string }> = [
  { key: 'name', label: 'Name' },
  { key: 'source', label: 'Source' },
  { key: 'turn', label: 'Turn / step' },
  { key: 'kind', label: 'Kind' },
  { key: 'bytes', label: 'Size' },
  { key: 'createdAt', label: 'Created' },
  { key: 'expiresAt', label: 'TTL' },
  { key: 'pinned', label: 'Pinned' },
  { key: 'version', label: 'Version' },
];

/** Sessions, the entries of one (sortable, filterable), and full-text search across the store. */
export function SessionsView({ session, revision }: { session?: string; revision: number }) {
  const [sessions, setSessions] = useState<SessionInfo[]>([]);
  const [error, setError] = useState<string>();
  useEffect(() => {
    get<{ sessions: SessionInfo[] }>('/sessions')
      .then((reply) => setSessions(reply.sessions))
      .catch((failure: Error) => setError(failure.message));
  }, [revision]);
  const current = session ?? sessions[0]?.id;
  return (
    <div class="split">
      <nav class="sessions" aria-label="Sessions">
        <h2>Sessions</h2>
        {error ? <div class="error">{error}</div> : null}
        <ul>
          {sessions.map((info) => (
            <li key={info.id} class={info.id === current ? 'current' : ''}>
              <a
                class="session-link"
                href={href({ view: 'entries', session: info.id })}
                aria-current={info.id === current ? 'page' : undefined}
              >
                <span class="name">{info.id}</span>
                <span class="muted">
                  {formatCount(info.entries)} · {formatBytes(info.bytes)}
                </span>
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div class="main">
        <SearchBox session={current} />
        {current ? (
          <EntryTable session={current} revision={revision} />
        ) : (
          <p class="muted">The store is empty.</p>
        )}
      </div>
    </div>
  );
}

function SearchBox({ session }: { session: string | undefined }) {
  const [query, setQuery] = useState('');
  const [everywhere, setEverywhere] = useState(true);
  const [hits, setHits] = useState<SearchHit[]>();
  const [error, setError] = useState<string>();
  const [searching, setSearching] = useState(false);
  const [indexing, setIndexing] = useState<Indexing[]>();
  const again = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(again.current), []);
  const search = async (q: string, scope: string | undefined) => {
    setSearching(true);
    try {
      const reply = await get<{ hits: SearchHit[]; indexing?: Indexing[] }>('/search', {
        q,
        limit: 30,
        session: scope,
      });
      setHits(reply.hits);
      setIndexing(reply.indexing);
      setError(undefined);
      // A session's first search indexes it step by step: show what is found so far and ask again.
      window.clearTimeout(again.current);
      if (reply.indexing) again.current = window.setTimeout(() => void search(q, scope), 1000);
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setSearching(false);
    }
  };
  const run = (event: Event) => {
    event.preventDefault();
    window.clearTimeout(again.current);
    if (!query.trim()) return setHits(undefined);
    void search(query, everywhere ? undefined : session);
  };
  const terms = query
    .toLowerCase()
    .split(/\W+/)
    .filter((term) => term.length > 1);
  return (
    <section class="search" aria-label="Full-text search">
      <form onSubmit={run} class="toolbar">
        <input
          name="search"
          type="search"
          placeholder="Full-text search (ranked)"
          value={query}
          onInput={(event) => setQuery((event.target as HTMLInputElement).value)}
          aria-label="Search entries"
        />
        <label class="check">
          <input
            type="checkbox"
            checked={everywhere}
            onChange={(event) => setEverywhere((event.target as HTMLInputElement).checked)}
          />{' '}
          all sessions
        </label>
        <button type="submit" disabled={searching}>
          Search
        </button>
        {indexing ? (
          <span class="muted" aria-live="polite">
            Indexing for search:{' '}
            {indexing
              .map((item) => `${item.session} ${Math.floor((100 * item.done) / Math.max(1, item.total))} %`)
              .join(', ')}
            ; results so far
          </span>
        ) : searching ? (
          <span class="muted">Searching…</span>
        ) : null}
      </form>
      {error ? <div class="error">{error}</div> : null}
      {hits ? (
        hits.length === 0 ? (
          <p class="muted">No entry matches.</p>
        ) : (
          <ol class="hits">
            {hits.map((hit) => (
              <li key={hit.entry.id}>
                <a href={href({ view: 'entry', session: hit.entry.session, id: hit.entry.id })}>
                  <strong>{hit.entry.name}</strong> <span class="muted">in {hit.entry.session}</span>
                </a>
                <div class="snippet">{highlightTerms(hit.snippet.replace(/[[\]]/g, ''), terms)}</div>
              </li>
            ))}
          </ol>
        )
      ) : null}
    </section>
  );
}

function highlightTerms(text: string, terms: string[]) {
  if (terms.length === 0) return text;
  const pattern = new RegExp(
    `(${terms.map((term) => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`,
    'gi',
  );
  return text.split(pattern).map((part, index) => (index % 2 === 1 ? <mark>{part}</mark> : part));
}

interface EntryPage {
  entries: EntrySummary[];
  nextCursor?: string;
}

function EntryTable({ session, revision }: { session: string; revision: number }) {
  const [entries, setEntries] = useState<EntrySummary[]>([]);
  const [nextCursor, setNextCursor] = useState<string>();
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({
    key: 'createdAt',
    descending: true,
  });
  const [error, setError] = useState<string>();
  useEffect(() => {
    get<EntryPage>(`/sessions/${encodeURIComponent(session)}/entries`, { limit: 500, orderBy: 'createdAt' })
      .then((reply) => {
        setEntries(reply.entries);
        setNextCursor(reply.nextCursor);
        setError(undefined);
      })
      .catch((failure: Error) => setError(failure.message));
  }, [session, revision]);
  // The next 500 after the last page shown (the server's keyset cursor: nothing repeated or skipped).
  const loadMore = (): void => {
    if (nextCursor === undefined) return;
    get<EntryPage>(`/sessions/${encodeURIComponent(session)}/entries`, { limit: 500, cursor: nextCursor })
      .then((reply) => {
        setEntries((shown) => [...shown, ...reply.entries]);
        setNextCursor(reply.nextCursor);
      })
      .catch((failure: Error) => setError(failure.message));
  };
  const rows = useMemo(() => {
    const needle = filter.toLowerCase();
    const filtered = entries.filter((entry) =>
      `${entry.name} ${entry.source ?? ''} ${entry.kind} ${entry.mediaType}`.toLowerCase().includes(needle),
    );
    const value = (entry: EntrySummary): string | number => {
      const raw = entry[sort.key];
      return raw === null ? -1 : typeof raw === 'boolean' ? Number(raw) : raw;
    };
    return filtered.sort((a, b) => {
      const x = value(a);
      const y = value(b);
      const order = x < y ? -1 : x > y ? 1 : 0;
      return sort.descending ? -order : order;
    });
  }, [entries, filter, sort]);
  return (
    <section class="entries" aria-label={`Entries of ${session}`}>
      <div class="toolbar">
        <h2>{session}</h2>
        <input
          name="filter"
          placeholder="Filter by name, source, kind"
          value={filter}
          onInput={(event) => setFilter((event.target as HTMLInputElement).value)}
          aria-label="Filter entries"
        />
        <span class="muted">
          {rows.length} of {entries.length}
          {nextCursor === undefined ? '' : ' (more in the store) '}
          {nextCursor === undefined ? null : (
            <button type="button" onClick={loadMore}>
              Load 500 more
            </button>
          )}
        </span>
      </div>
      {error ? <div class="error">{error}</div> : null}
      <div class="table-scroll">
        <table>
          <thead>
            <tr>
              {COLUMNS.map((column) => (
                <th
                  key={column.key}
                  aria-sort={
                    sort.key === column.key ? (sort.descending ? 'descending' : 'ascending') : 'none'
                  }
                >
                  <button
                    type="button"
                    onClick={() =>
                      setSort({
                        key: column.key,
                        descending: sort.key === column.key ? !sort.descending : false,
                      })
                    }
                  >
                    {column.label}
                    {sort.key === column.key ? (sort.descending ? ' ▾' : ' ▴') : ''}
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((entry) => (
              <tr key={entry.id}>
                <td>
                  <a href={href({ view: 'entry', session, id: entry.id })}>{entry.name}</a>
                </td>
                <td>{entry.source ?? '—'}</td>
                <td>
                  {entry.turn ? (
                    <a href={href({ view: 'turn', id: entry.turn })}>{entry.turn.slice(0, 8)}</a>
                  ) : (
                    '—'
                  )}
                  {entry.step !== null ? ` / ${entry.step}` : ''}
                </td>
                <td>{entry.kind}</td>
                <td class="number">{formatBytes(entry.bytes)}</td>
                <td>{formatTime(entry.createdAt)}</td>
                <td>{formatTtl(entry.expiresAt)}</td>
                <td>{entry.pinned ? 'yes' : ''}</td>
                <td class="number">{entry.version}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
