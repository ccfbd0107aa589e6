import { useEffect, useState } from 'preact/hooks';
import { get } from '../api.js';
import { formatBytes, formatCount, formatTime } from '../format.js';
import { href } from '../router.js';
import type { TurnSummary } from '../types.js';
import { ShownStoredChart } from './bar-chart.js';

type Json = Record<string, unknown>;

/** One turn: its query, outcome and model calls, and a timeline of its steps with everything the log says. */
export function TurnView({ id }: { id: string }) {
  const [turn, setTurn] = useState<TurnSummary>();
  const [record, setRecord] = useState<Json>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    get<{ turn: TurnSummary; record: Json }>(`/turns/${encodeURIComponent(id)}`)
      .then((reply) => {
        setTurn(reply.turn);
        setRecord(reply.record);
      })
      .catch((failure: Error) => setError(failure.message));
  }, [id]);
  if (error)
    return (
      <div class="error" role="alert">
        {error}
      </div>
    );
  if (!turn || !record) return <div class="loading">Loading…</div>;
  const steps = (Array.isArray(record.steps) ? record.steps : []) as Json[];
  const calls = (Array.isArray(record.model_calls) ? record.model_calls : []) as Json[];
  return (
    <div class="turn-view">
      <header>
        <h2>
          <a href={href({ view: 'turns', session: turn.session })}>{turn.session}</a> / turn{' '}
          {turn.turnId.slice(0, 8)}
        </h2>
        <p class="query">{String(record.user_query ?? '')}</p>
        <dl class="facts">
          <dt>started</dt>
          <dd>{formatTime(turn.tsStart * 1000)}</dd>
          <dt>took</dt>
          <dd>{((turn.tsEnd - turn.tsStart) * 1000).toFixed(0)} ms</dd>
          <dt>mode</dt>
          <dd>{turn.mode}</dd>
          <dt>model</dt>
          <dd>{turn.model}</dd>
          <dt>ended</dt>
          <dd>
            <span class={`badge ${turn.finalKind}`}>{turn.finalKind}</span>
          </dd>
        </dl>
        <p class="final">{String(record.final_message ?? '')}</p>
      </header>
      {turn.steps.length > 0 ? (
        <ShownStoredChart
          title="Context per step"
          groups={turn.steps.map((step) => ({
            label: `${step.step} ${step.tool}`,
            shown: step.shown,
            stored: step.stored,
          }))}
        />
      ) : null}
      <ol class="steps" aria-label="Steps">
        {steps.map((step) => (
          <StepCard key={String(step.step)} step={step} session={turn.session} />
        ))}
      </ol>
      {(['plan', 'attempts', 'escalation', 'tier_escalations'] as const).map((key) =>
        record[key] === undefined || record[key] === null ? null : (
          <details class="calls" key={key}>
            <summary>{key.replace('_', ' ')}</summary>
            <pre>{JSON.stringify(record[key], null, 2)}</pre>
          </details>
        ),
      )}
      {calls.length > 0 ? (
        <details class="calls">
          <summary>{calls.length} model calls</summary>
          <table>
            <thead>
              <tr>
                <th>purpose</th>
                <th>tier</th>
                <th>model</th>
                <th>tokens in / out</th>
                <th>latency</th>
                <th>error</th>
              </tr>
            </thead>
            <tbody>
              {calls.map((call, index) => (
                <tr key={index}>
                  <td>{String(call.purpose)}</td>
                  <td>{String(call.tier)}</td>
                  <td>
                    {String(call.provider)}/{String(call.modelId)}
                  </td>
                  <td class="number">
                    {formatCount(Number(call.inputTokens ?? 0))} /{' '}
                    {formatCount(Number(call.outputTokens ?? 0))}
                  </td>
                  <td class="number">{formatCount(Number(call.latencyMs ?? 0))} ms</td>
                  <td>{call.error ? String(call.error) : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ) : null}
    </div>
  );
}

function StepCard({ step, session }: { step: Json; session: string }) {
  const llm = (step.llm ?? {}) as Json;
  const vaglio = step.vaglio as Json | undefined;
  const run = step.run as Json | undefined;
  const result = (step.result ?? {}) as Json;
  const entry = typeof result.entry === 'string' ? result.entry : undefined;
  return (
    <li class={`step ${String(step.outcome)}`} data-step={String(step.step)}>
      <h3>
        Step {String(step.step)}: <code>{String(step.tool)}</code>{' '}
        <span class="badge">{String(step.outcome)}</span>
        {step.tier ? <span class="badge">{String(step.tier)}</span> : null}
      </h3>
      <p class="muted">
        tokens {formatCount(Number(llm.inputTokens ?? 0))} in / {formatCount(Number(llm.outputTokens ?? 0))}{' '}
        out · {formatCount(Number(llm.latencyMs ?? 0))} ms
      </p>
      <div class="columns">
        <div>
          <h4>Arguments as written</h4>
          <pre>{JSON.stringify(step.rawArgs, null, 2)}</pre>
        </div>
        <div>
          <h4>Arguments resolved</h4>
          <pre>{JSON.stringify(step.resolvedArgs, null, 2)}</pre>
        </div>
      </div>
      {vaglio ? (
        <p class={`verdict ${vaglio.approved ? 'approved' : 'denied'}`}>
          <strong>Vaglio:</strong> {vaglio.approved ? 'approved' : 'denied'} by {String(vaglio.judge_kind)}
          {vaglio.score !== null && vaglio.score !== undefined
            ? `, score ${Number(vaglio.score).toFixed(2)}`
            : ''}
          {vaglio.blocked_by ? `, blocked by ${String(vaglio.blocked_by)}` : ''}
          {vaglio.rule ? ` (rule ${String(vaglio.rule)})` : ''} — {String(vaglio.reason ?? '')}
          {vaglio.model_reason ? ` · model: ${String(vaglio.model_reason)}` : ''}
        </p>
      ) : null}
      <p>
        <strong>Sandbox:</strong> {step.sandbox ? String(step.sandbox) : '—'}
        {run
          ? ` · exit ${String(run.exitCode)}${run.timedOut ? ', timed out' : ''}${run.outputCapped ? ', output capped' : ''} · ${formatCount(Number(run.durationMs ?? 0))} ms · network ${run.network ? 'on' : 'off'}`
          : ''}
        {step.refused ? ` · refused (${String(step.refused)})` : ''}
      </p>
      <div class="result">
        <strong>Observation:</strong>{' '}
        {result.offloaded ? (
          <>
            {typeof result.shownChars === 'number'
              ? `${formatCount(result.shownChars)} chars shown`
              : 'shown size not logged'}{' '}
            · {formatBytes(Number(result.bytes ?? 0))} stored as{' '}
            {entry ? (
              <a class="entry-link" href={href({ view: 'entry', session, id: entry })}>
                {String(result.name ?? entry)}
              </a>
            ) : (
              String(result.name ?? '')
            )}
            {typeof result.observation === 'string' ? (
              <pre class="observation-text">{result.observation}</pre>
            ) : null}
          </>
        ) : (
          <>
            {typeof result.chars === 'number' ? `${formatCount(result.chars)} chars, inline` : 'inline'}
            {result.error ? ` · ${String(result.error)}` : ''}
            {typeof result.observation === 'string' ? (
              <pre class="observation-text">{result.observation}</pre>
            ) : (
              <pre>{JSON.stringify(result, null, 2)}</pre>
            )}
          </>
        )}
      </div>
    </li>
  );
}
