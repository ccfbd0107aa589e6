import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { entryPath, get, send } from '../api.js';
import { formatBytes, formatCount, formatTime, formatTtl, highlighter, splitMatches } from '../format.js';
import { isShortcut } from '../keyboard.js';
import { href } from '../router.js';
import type { EntryDetail, GrepReply, ObservationReply, PageLine } from '../types.js';
import { SlicePanel } from './slice-panel.js';
import { type RowSource, Viewport } from './viewport.js';

interface HexRow {
  row: number;
  offset: number;
  hex: string;
}

const HEX_ROW_BYTES = 16;

/** One entry: its facts, its content through the virtual viewport, grep, a slice panel, and what the model saw. */
export function EntryView({
  session,
  id,
  line,
  revision,
}: {
  session: string;
  id: string;
  line?: number;
  revision: number;
}) {
  const [entry, setEntry] = useState<EntryDetail>();
  const [error, setError] = useState<string>();
  const [target, setTargetState] = useState(line === undefined ? undefined : { row: line, seq: 0 });
  const setTarget = useCallback(
    (row: number | undefined) =>
      setTargetState((previous) => (row === undefined ? undefined : { row, seq: (previous?.seq ?? 0) + 1 })),
    [],
  );
  const [jump, setJump] = useState(line ? String(line) : '');
  const [pattern, setPattern] = useState('');
  const [ignoreCase, setIgnoreCase] = useState(true);
  const [grep, setGrep] = useState<GrepReply>();
  const [grepError, setGrepError] = useState<string>();
  const [current, setCurrent] = useState(-1);
  const [slice, setSlice] = useState<{ offset: number } | undefined>();
  const [topLine, setTopLine] = useState(1);
  const grepInput = useRef<HTMLInputElement>(null);
  const jumpInput = useRef<HTMLInputElement>(null);
  const path = entryPath(session, id);

  useEffect(() => {
    get<{ entry: EntryDetail }>(path)
      .then((reply) => {
        setEntry(reply.entry);
        setError(undefined);
      })
      .catch((failure: Error) => setError(failure.message));
  }, [path, revision]);

  useEffect(() => setTarget(line), [line]);

  const textSource = useMemo<RowSource<PageLine> | undefined>(
    () =>
      entry && entry.kind === 'text'
        ? {
            total: entry.lines,
            key: `${entry.id}:${entry.version}`,
            numberOf: (row) => row.line,
            fetch: async (start, count) =>
              (await get<{ lines: PageLine[] }>(`${path}/lines`, { start, count: Math.min(count, 1000) }))
                .lines,
          }
        : undefined,
    [entry?.id, entry?.version, entry?.lines, entry?.kind, path],
  );

  const hexSource = useMemo<RowSource<HexRow> | undefined>(
    () =>
      entry && entry.kind === 'binary'
        ? {
            total: Math.ceil(entry.bytes / HEX_ROW_BYTES),
            key: `${entry.id}:${entry.version}`,
            numberOf: (row) => row.row,
            fetch: async (start, count) => {
              const offset = (start - 1) * HEX_ROW_BYTES;
              const reply = await get<{ hex: string }>(`${path}/bytes`, {
                offset,
                limit: Math.min(count * HEX_ROW_BYTES, 65_536),
              });
              const rows: HexRow[] = [];
              for (let at = 0; at < reply.hex.length; at += HEX_ROW_BYTES * 2) {
                rows.push({
                  row: start + at / (HEX_ROW_BYTES * 2),
                  offset: offset + at / 2,
                  hex: reply.hex.slice(at, at + HEX_ROW_BYTES * 2),
                });
              }
              return rows;
            },
          }
        : undefined,
    [entry?.id, entry?.version, entry?.bytes, entry?.kind, path],
  );

  const runGrep = useCallback(async () => {
    if (!pattern) return;
    try {
      const reply = await get<GrepReply>(`${path}/grep`, {
        pattern,
        ignoreCase: ignoreCase ? 1 : 0,
        max: 500,
      });
      setGrep(reply);
      setGrepError(undefined);
      const first = reply.matches.findIndex((match) => match.line >= topLine);
      const index = first === -1 ? 0 : first;
      setCurrent(reply.matches.length > 0 ? index : -1);
      if (reply.matches[index]) setTarget(reply.matches[index].line);
    } catch (failure) {
      setGrep(undefined);
      setGrepError((failure as Error).message);
    }
  }, [pattern, ignoreCase, path, topLine, setTarget]);

  const step = useCallback(
    (delta: number) => {
      if (!grep || grep.matches.length === 0) return;
      const next = (current + delta + grep.matches.length) % grep.matches.length;
      setCurrent(next);
      setTarget(grep.matches[next]?.line);
    },
    [grep, current, setTarget],
  );

  // The listener is installed once and reads the `step` of the latest render: effects run after paint, so one
  // re-installed per render would let a key pressed right after a step act on the hit before it.
  const latestStep = useRef(step);
  latestStep.current = step;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isShortcut(event)) return;
      if (event.key === '/') {
        event.preventDefault();
        grepInput.current?.focus();
      } else if (event.key === 'g') {
        event.preventDefault();
        jumpInput.current?.focus();
      } else if (event.key === 'n') latestStep.current(1);
      else if (event.key === 'N') latestStep.current(-1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const mark = useMemo(() => (grep ? highlighter(grep.pattern, ignoreCase) : undefined), [grep, ignoreCase]);

  if (error)
    return (
      <div class="error" role="alert">
        {error}
      </div>
    );
  if (!entry) return <div class="loading">Loading…</div>;

  const doJump = (event: Event) => {
    event.preventDefault();
    // Like `less`: once the jump is made, the keys are shortcuts again (`n`, `g`, …).
    jumpInput.current?.blur();
    const number = Number(jump);
    if (Number.isSafeInteger(number) && number >= 1)
      setTarget(Math.min(number, Math.max(1, textSource?.total ?? hexSource?.total ?? 1)));
  };

  return (
    <div class="entry-view">
      <EntryHeader entry={entry} path={path} onChange={setEntry} />
      <div class="toolbar">
        <form onSubmit={doJump} class="group">
          <label>
            {entry.kind === 'text' ? 'Line' : 'Row'}{' '}
            <input
              ref={jumpInput}
              name="jump"
              type="number"
              min={1}
              value={jump}
              onInput={(event) => setJump((event.target as HTMLInputElement).value)}
              aria-label="Jump to line"
            />
          </label>
          <button type="submit">Go</button>
        </form>
        {entry.kind === 'text' ? (
          <form
            class="group"
            onSubmit={(event) => {
              event.preventDefault();
              // Like `less`: after `/pattern` Enter, `n` and `N` step through the hits instead of typing.
              grepInput.current?.blur();
              void runGrep();
            }}
          >
            <input
              ref={grepInput}
              name="grep"
              placeholder="grep (RE2 regex)"
              value={pattern}
              onInput={(event) => setPattern((event.target as HTMLInputElement).value)}
              aria-label="Grep pattern"
            />
            <label class="check">
              <input
                type="checkbox"
                checked={ignoreCase}
                onChange={(event) => setIgnoreCase((event.target as HTMLInputElement).checked)}
              />{' '}
              ignore case
            </label>
            <button type="submit">Grep</button>
            <button
              type="button"
              onClick={() => step(-1)}
              disabled={!grep?.matches.length}
              aria-label="Previous match"
            >
              ↑
            </button>
            <button
              type="button"
              onClick={() => step(1)}
              disabled={!grep?.matches.length}
              aria-label="Next match"
            >
              ↓
            </button>
            <span class="grep-status" aria-live="polite">
              {grepError ? grepError : grep ? `${current + 1} / ${grep.description}` : ''}
            </span>
          </form>
        ) : null}
        {entry.kind === 'text' ? (
          <button type="button" onClick={() => setSlice(slice ? undefined : { offset: 0 })}>
            {slice ? 'Close slice' : 'Slice / JSON / copy'}
          </button>
        ) : null}
      </div>
      <div class="entry-body">
        <div class="content">
          {textSource ? (
            <Viewport
              source={textSource}
              target={target}
              onTop={setTopLine}
              label={`Lines of ${entry.name}`}
              render={(row: PageLine, active) => (
                <div class={`row${active ? ' active' : ''}`} data-line={row.line}>
                  <span class="gutter">{row.line}</span>
                  <span class="text">
                    {splitMatches(row.text, mark).map((part) =>
                      part.match ? <mark>{part.text}</mark> : part.text,
                    )}
                    {row.clipped ? (
                      <button
                        type="button"
                        class="more"
                        onClick={() => setSlice({ offset: row.charStart ?? 0 })}
                      >
                        … open the whole line
                      </button>
                    ) : null}
                  </span>
                </div>
              )}
            />
          ) : hexSource ? (
            <Viewport
              source={hexSource}
              target={target}
              label={`Bytes of ${entry.name}`}
              render={(row: HexRow, active) => <HexLine row={row} active={active} />}
            />
          ) : null}
          {grep && grep.matches.length > 0 ? (
            <ol class="matches" aria-label="Grep matches">
              {grep.matches.slice(0, 200).map((match, index) => (
                <li key={match.line} class={index === current ? 'current' : ''}>
                  <button
                    type="button"
                    onClick={() => {
                      setCurrent(index);
                      setTarget(match.line);
                    }}
                  >
                    <span class="gutter">{match.line}</span>
                    {splitMatches(match.text, mark).map((part) =>
                      part.match ? <mark>{part.text}</mark> : part.text,
                    )}
                  </button>
                </li>
              ))}
            </ol>
          ) : null}
        </div>
        <aside class="side">
          {slice ? <SlicePanel path={path} entry={entry} offset={slice.offset} /> : null}
          <ObservationPanel path={path} revision={revision} />
        </aside>
      </div>
    </div>
  );
}

function HexLine({ row, active }: { row: HexRow; active: boolean }) {
  const bytes = row.hex.match(/../g) ?? [];
  const ascii = bytes
    .map((pair) => {
      const code = Number.parseInt(pair, 16);
      return code >= 32 && code < 127 ? String.fromCharCode(code) : '.';
    })
    .join('');
  return (
    <div class={`row hex${active ? ' active' : ''}`}>
      <span class="gutter">{row.offset.toString(16).padStart(8, '0')}</span>
      <span class="text">
        {bytes.join(' ').padEnd(HEX_ROW_BYTES * 3 - 1, ' ')}
        {'  '}
        <span class="ascii">{ascii}</span>
      </span>
    </div>
  );
}

function EntryHeader({
  entry,
  path,
  onChange,
}: {
  entry: EntryDetail;
  path: string;
  onChange: (entry: EntryDetail) => void;
}) {
  const [confirming, setConfirming] = useState<'delete' | 'pin'>();
  const [failure, setFailure] = useState<string>();
  const confirmButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);
  const act = async () => {
    try {
      if (confirming === 'pin') {
        const reply = await send<{ entry: EntryDetail }>('POST', `${path}/pin`, {
          pinned: !entry.pinned,
          confirm: true,
          ifVersion: entry.version,
        });
        onChange(reply.entry);
      } else if (confirming === 'delete') {
        await send('DELETE', path, { confirm: true, ifVersion: entry.version });
        location.hash = href({ view: 'entries', session: entry.session });
      }
      setFailure(undefined);
    } catch (error) {
      setFailure((error as Error).message);
    }
    setConfirming(undefined);
  };
  return (
    <header class="entry-header">
      <h2>
        <a href={href({ view: 'entries', session: entry.session })}>{entry.session}</a> /{' '}
        <span>{entry.name}</span>
      </h2>
      <dl class="facts">
        <dt>kind</dt>
        <dd>
          {entry.kind} ({entry.mediaType})
        </dd>
        <dt>size</dt>
        <dd>
          {formatBytes(entry.bytes)}
          {entry.kind === 'text' ? `, ${formatCount(entry.lines)} lines` : ''}
        </dd>
        <dt>source</dt>
        <dd>{entry.source ?? '—'}</dd>
        <dt>turn / step</dt>
        <dd>
          {entry.turn ? <a href={href({ view: 'turn', id: entry.turn })}>{entry.turn.slice(0, 8)}</a> : '—'}
          {entry.step !== null ? ` / ${entry.step}` : ''}
        </dd>
        <dt>created</dt>
        <dd>{formatTime(entry.createdAt)}</dd>
        <dt>TTL</dt>
        <dd>{formatTtl(entry.expiresAt)}</dd>
        <dt>version</dt>
        <dd>{entry.version}</dd>
        <dt>pinned</dt>
        <dd>{entry.pinned ? 'yes' : 'no'}</dd>
      </dl>
      <div class="actions">
        {confirming ? (
          <span class="confirm" role="alertdialog" aria-label="Confirm">
            {confirming === 'delete'
              ? `Delete "${entry.name}" (version ${entry.version})? This cannot be undone.`
              : `${entry.pinned ? 'Unpin' : 'Pin'} "${entry.name}"?`}{' '}
            <button type="button" class="danger" onClick={() => void act()} ref={confirmButton}>
              {confirming === 'delete' ? 'Delete' : entry.pinned ? 'Unpin' : 'Pin'}
            </button>
            <button type="button" onClick={() => setConfirming(undefined)}>
              Cancel
            </button>
          </span>
        ) : (
          <>
            <button type="button" onClick={() => setConfirming('pin')}>
              {entry.pinned ? 'Unpin…' : 'Pin…'}
            </button>
            <button type="button" onClick={() => setConfirming('delete')}>
              Delete…
            </button>
          </>
        )}
        {failure ? <span class="error">{failure}</span> : null}
      </div>
    </header>
  );
}

function ObservationPanel({ path, revision }: { path: string; revision: number }) {
  const [reply, setReply] = useState<ObservationReply>();
  useEffect(() => {
    get<ObservationReply>(`${path}/observation`)
      .then(setReply)
      .catch(() => setReply({ found: false }));
  }, [path, revision]);
  return (
    <section class="observation" aria-label="What the model saw">
      <h3>What the model saw</h3>
      {!reply ? (
        <p>…</p>
      ) : !reply.found ? (
        <p class="muted">No turn in the log offloaded this entry (it was written by a tool or by hand).</p>
      ) : (
        <>
          <p>
            <a href={href({ view: 'turn', id: reply.turnId as string })}>
              Turn {String(reply.turnId).slice(0, 8)}
            </a>
            , step {reply.step} ({reply.tool}):{' '}
            {reply.shownChars !== null && reply.shownChars !== undefined
              ? `${formatCount(reply.shownChars)} chars shown`
              : 'size shown not logged'}{' '}
            for {formatBytes(reply.storedBytes ?? 0)} stored.
          </p>
          {reply.observation ? <pre class="observation-text">{reply.observation}</pre> : null}
        </>
      )}
    </section>
  );
}
