import { useEffect, useState } from 'preact/hooks';
import { get } from '../api.js';
import { formatBytes, formatTime } from '../format.js';
import { href } from '../router.js';
import type { TurnSummary } from '../types.js';

/** Turns of the log, newest first, optionally of one session. */
export function TurnsView({ session, revision }: { session?: string; revision: number }) {
  const [turns, setTurns] = useState<TurnSummary[]>([]);
  const [skipped, setSkipped] = useState(0);
  const [error, setError] = useState<string>();
  useEffect(() => {
    get<{ turns: TurnSummary[]; skippedLines: number }>('/turns', { session, limit: 200 })
      .then((reply) => {
        setTurns(reply.turns);
        setSkipped(reply.skippedLines);
        setError(undefined);
      })
      .catch((failure: Error) => setError(failure.message));
  }, [session, revision]);
  return (
    <section class="turns" aria-label="Turns">
      <h2>Turns{session ? ` of ${session}` : ''}</h2>
      {error ? <div class="error">{error}</div> : null}
      {skipped > 0 ? (
        <p class="muted">{skipped} lines of the log were not turn records and were skipped.</p>
      ) : null}
      {turns.length === 0 ? <p class="muted">No turns in the log yet.</p> : null}
      <ol class="timeline">
        {turns.map((turn) => {
          const shown = turn.steps.reduce((sum, step) => sum + (step.shown ?? 0), 0);
          const stored = turn.steps.reduce((sum, step) => sum + step.stored, 0);
          return (
            <li key={turn.turnId} class={`turn ${turn.finalKind}`}>
              <a class="turn-link" href={href({ view: 'turn', id: turn.turnId })}>
                <span class="when">{formatTime(turn.tsStart * 1000)}</span>
                <span class="query">{turn.query || '(no query)'}</span>
                <span class="badges">
                  <span class={`badge ${turn.finalKind}`}>{turn.finalKind}</span>
                  <span class="badge">{turn.mode}</span>
                  <span class="badge">{turn.steps.length} steps</span>
                  <span class="badge">session {turn.session}</span>
                  <span class="badge">
                    shown {formatBytes(shown)} · stored {formatBytes(stored)}
                  </span>
                </span>
              </a>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
