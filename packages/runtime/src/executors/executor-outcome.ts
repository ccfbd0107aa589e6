import type { JsonObject, JsonValue } from 'llm-scratchpad';

/**
 * What one executor run returns to the planner (the seed's observation): `ok`, and `content`, `metadata`,
 * `error` when present. Runner failures (crash, timeout, non-JSON output) are outcomes too, never exceptions.
 */
export interface ExecutorOutcome {
  ok: boolean;
  content?: JsonValue;
  metadata?: JsonObject;
  error?: string;
}

/** Result of {@link parseExecutorOutput}: the outcome, or why stdout is not one. */
export type ParseExecutorOutputResult =
  | {
      ok: true;
      outcome: ExecutorOutcome;
      /** Set when the executor streamed its content on the content channel (`content_stream`), as what kind. */
      contentStream?: 'text' | 'binary';
    }
  | { ok: false; problem: 'not-json' | 'bad-shape' };

/**
 * Reads an executor's whole stdout as one JSON object `{ok, content?, content_stream?, metadata?, error?}`
 * (`content_stream`: the content came on the content channel, as `text` or `binary`). Other top-level keys are
 * dropped; `ok: false` without an error message gets a generic one so the model always has text to read.
 */
export function parseExecutorOutput(stdout: string): ParseExecutorOutputResult {
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch {
    return { ok: false, problem: 'not-json' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, problem: 'bad-shape' };
  const record = value as Record<string, unknown>;
  if (typeof record.ok !== 'boolean') return { ok: false, problem: 'bad-shape' };
  const stream = record.content_stream;
  if (stream !== undefined && stream !== 'text' && stream !== 'binary')
    return { ok: false, problem: 'bad-shape' };
  if (record.error !== undefined && typeof record.error !== 'string')
    return { ok: false, problem: 'bad-shape' };
  const metadata = record.metadata;
  if (
    metadata !== undefined &&
    (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
  ) {
    return { ok: false, problem: 'bad-shape' };
  }
  const outcome: ExecutorOutcome = { ok: record.ok };
  if (record.content !== undefined) outcome.content = record.content as JsonValue;
  if (metadata !== undefined) outcome.metadata = metadata as JsonObject;
  if (typeof record.error === 'string') outcome.error = record.error;
  else if (!record.ok) outcome.error = 'the executor reported a failure without an error message';
  return stream === undefined || outcome.content !== undefined
    ? { ok: true, outcome }
    : { ok: true, outcome, contentStream: stream };
}
