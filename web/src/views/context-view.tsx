import { useEffect, useState } from 'preact/hooks';
import { get } from '../api.js';
import { formatBytes, formatCount } from '../format.js';
import { href } from '../router.js';
import type { SessionInfo, TurnSummary } from '../types.js';
import { ShownStoredChart } from './bar-chart.js';

interface ContextReply {
  totals: { turns: number; steps: number; shown: number; stored: number; unknownShown: number };
  turns: Array<TurnSummary & { shown: number; stored: number }>;
}

/** The context picture: per turn, what the model was shown vs what the store kept, and the session's totals. */
export function ContextView({ session, revision }: { session?: string; revision: number }) {
  const [sessions, setSessions] = useState<SessionInfo[]>([]);
  const [reply, setReply] = useState<ContextReply>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    get<{ sessions: SessionInfo[] }>('/sessions')
      .then((answer) => setSessions(answer.sessions))
      .catch(() => undefined);
  }, [revision]);
  useEffect(() => {
    get<ContextReply>('/context', { session, limit: 50 })
      .then((answer) => {
        setReply(answer);
        setError(undefined);
      })
      .catch((failure: Error) => setError(failure.message));
  }, [session, revision]);
  const totals = reply?.totals;
  return (
    <section class="context" aria-label="Context picture">
      <div class="toolbar">
        <h2>Context{session ? ` of ${session}` : ' of every session'}</h2>
        <label>
          Session{' '}
          <select
            value={session ?? ''}
            onChange={(event) => {
              const value = (event.target as HTMLSelectElement).value;
              location.hash = href(value ? { view: 'context', session: value } : { view: 'context' });
            }}
          >
            <option value="">all</option>
            {sessions.map((info) => (
              <option key={info.id} value={info.id}>
                {info.id}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error ? <div class="error">{error}</div> : null}
      {totals ? (
        <dl class="totals">
          <dt>turns</dt>
          <dd>{formatCount(totals.turns)}</dd>
          <dt>steps</dt>
          <dd>{formatCount(totals.steps)}</dd>
          <dt>shown to the model</dt>
          <dd>{formatBytes(totals.shown)}</dd>
          <dt>stored outside the context</dt>
          <dd>{formatBytes(totals.stored)}</dd>
          <dt>stored for each character shown</dt>
          <dd>{totals.shown > 0 ? `${formatCount(Math.round(totals.stored / totals.shown))} bytes` : '—'}</dd>
          {totals.unknownShown > 0 ? (
            <>
              <dt>steps without a logged shown size</dt>
              <dd>{totals.unknownShown}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
      {reply && reply.turns.length > 0 ? (
        <ShownStoredChart
          title="Per turn (newest first)"
          groups={reply.turns.map((turn) => ({
            label: turn.query || turn.turnId.slice(0, 8),
            shown: turn.shown,
            stored: turn.stored,
          }))}
        />
      ) : (
        <p class="muted">No turns in the log yet.</p>
      )}
      {reply ? (
        <ol class="context-turns">
          {reply.turns.map((turn) => (
            <li key={turn.turnId}>
              <a href={href({ view: 'turn', id: turn.turnId })}>{turn.query || turn.turnId}</a>{' '}
              <span class="muted">
                {turn.steps.length} steps · shown {formatBytes(turn.shown)} · stored{' '}
                {formatBytes(turn.stored)}
              </span>
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
