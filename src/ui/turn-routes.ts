import { clipStrings } from '../core/clip-strings.js';
import { ScratchpadError } from '../core/errors.js';
import type { Scratchpad } from '../service/scratchpad.js';
import type { ApiRoute } from './api-route.js';
import type { ObservationReply, TurnSummary } from './api-types.js';
import type { IndexedTurn, TurnIndex } from './turn-index.js';

/** Most turns one reply lists. */
const MAX_LIST_TURNS = 500;
/** A turn record is sent with its strings clipped to the first of these lengths that fits in this many bytes. */
const MAX_RECORD_JSON_BYTES = 768 * 1024;
const CLIP_LENGTHS = [4000, 1000, 200, 40];
const MAX_OBSERVATION_CHARS = 8000;

/** The turn log: turns newest first, one turn's record, the context picture, and what an entry's step showed. */
export function turnRoutes(index: TurnIndex, scratchpad: Scratchpad): ApiRoute[] {
  return [
    {
      method: 'GET',
      pattern: '/api/turns',
      async handle({ query }) {
        await index.refresh();
        const session = query.text('session', 1000);
        const limit = query.integer('limit', 100, 1, MAX_LIST_TURNS);
        const before = query.text('before', 40);
        const beforeTs = before === undefined ? Number.POSITIVE_INFINITY : Number(before);
        const turns = index
          .turns()
          .filter((turn) => (session === undefined || turn.session === session) && turn.tsStart < beforeTs);
        return {
          body: {
            turns: turns.slice(0, limit).map(listed),
            truncated: turns.length > limit,
            skippedLines: index.skipped,
          },
        };
      },
    },
    {
      method: 'GET',
      pattern: '/api/turns/:turn',
      async handle({ params }) {
        await index.refresh();
        const turn = findTurn(index, params.turn as string);
        const record = await index.record(turn);
        return { body: { turn: listed(turn), record: clipToFit(record) } };
      },
    },
    {
      method: 'GET',
      pattern: '/api/context',
      async handle({ query }) {
        await index.refresh();
        const session = query.text('session', 1000);
        const limit = query.integer('limit', 100, 1, MAX_LIST_TURNS);
        const turns = index.turns().filter((turn) => session === undefined || turn.session === session);
        const totals = { turns: turns.length, steps: 0, shown: 0, stored: 0, unknownShown: 0 };
        for (const turn of turns) {
          for (const step of turn.steps) {
            totals.steps += 1;
            totals.stored += step.stored;
            if (step.shown === null) totals.unknownShown += 1;
            else totals.shown += step.shown;
          }
        }
        return {
          body: {
            session: session ?? null,
            totals,
            turns: turns.slice(0, limit).map((turn) => ({
              ...listed(turn),
              shown: sum(turn, 'shown'),
              stored: sum(turn, 'stored'),
            })),
            truncated: turns.length > limit,
          },
        };
      },
    },
    {
      method: 'GET',
      pattern: '/api/sessions/:session/entries/:id/observation',
      async handle({ params }) {
        const entry = await scratchpad.get(params.session as string, { id: params.id as string });
        await index.refresh();
        const found = index.stepOfEntry(entry.id);
        if (!found) return { body: { found: false } satisfies ObservationReply };
        const record = await index.record(found.turn);
        const steps = Array.isArray(record.steps) ? (record.steps as Array<Record<string, unknown>>) : [];
        const step = steps.find((item) => item?.step === found.step);
        const result = (step?.result ?? {}) as Record<string, unknown>;
        return {
          body: {
            found: true,
            turnId: found.turn.turnId,
            step: found.step,
            tool: String(step?.tool ?? ''),
            observation:
              typeof result.observation === 'string'
                ? (clipStrings(result.observation, MAX_OBSERVATION_CHARS) as string)
                : null,
            shownChars: typeof result.shownChars === 'number' ? result.shownChars : null,
            storedBytes: typeof result.bytes === 'number' ? result.bytes : entry.bytes,
          } satisfies ObservationReply,
        };
      },
    },
  ];
}

function findTurn(index: TurnIndex, turnId: string): IndexedTurn {
  const turn = index.turn(turnId);
  if (!turn) {
    throw new ScratchpadError(
      'INVALID_ARGUMENT',
      `No turn ${JSON.stringify(turnId.slice(0, 100))} in the turn log.`,
      {
        hint: `List the turns with GET /api/turns (the log is read from ${index.directory}).`,
      },
    );
  }
  return turn;
}

/** A turn summary without where its line is. */
function listed(turn: IndexedTurn): TurnSummary {
  const { file: _file, offset: _offset, length: _length, ...rest } = turn;
  return rest;
}

function sum(turn: IndexedTurn, key: 'shown' | 'stored'): number {
  return turn.steps.reduce((total, step) => total + (step[key] ?? 0), 0);
}

/** The record with its strings clipped just enough for the reply to stay small. */
function clipToFit(record: Record<string, unknown>): unknown {
  for (const length of CLIP_LENGTHS) {
    const clipped = clipStrings(record, length);
    if (Buffer.byteLength(JSON.stringify(clipped)) <= MAX_RECORD_JSON_BYTES) return clipped;
  }
  return {
    _clipped: 'The record is too large to show even with every string clipped; read the turn log file.',
  };
}
