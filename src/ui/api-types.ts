/**
 * The shapes of the inspector's HTTP API replies (docs/http-api.md): the routes build their bodies to these types
 * and the web app (`web/src/types.ts`) imports them, type-only, so the two cannot drift. Types only, and importing
 * only types without Node's: the web app's compiler reads this file.
 */
import type { Entry } from '../core/entry.js';
import type { JsonValue } from '../core/json.js';

export type { SessionInfo } from '../core/entry.js';

/** An entry as the inspector lists it: every field but the metadata, which may be arbitrarily large. */
export type EntrySummary = Omit<Entry, 'metadata'> & { metadataKeys: number };

/** An entry with its metadata clipped to a size one reply can carry. */
export type EntryDetail = EntrySummary & { metadata: JsonValue };

/** One hit of `GET /api/search`. */
export interface SearchHit {
  entry: EntrySummary;
  score: number;
  snippet: string;
}

/** One line of a page: its number and text; `clipped` lines start at `charStart` and go on past the text. */
export interface PageLine {
  line: number;
  text: string;
  clipped?: true;
  charStart?: number;
}

/** One match of `GET …/grep`: the line and the character where it starts, the line's text clipped. */
export interface GrepMatch {
  line: number;
  char: number;
  text: string;
  clipped: boolean;
}

/** The reply of `GET …/grep`. */
export interface GrepReply {
  pattern: string;
  matches: GrepMatch[];
  total: number;
  complete: boolean;
  description: string;
}

/** One step of a turn as the inspector lists it: what the model was shown and what the store kept. */
export interface StepSummary {
  step: number;
  tool: string;
  outcome: string;
  /** Characters of the observation the model got; `null` when the log does not say (older logs). */
  shown: number | null;
  /** Bytes stored in the scratchpad for this step (0 when the result stayed inline). */
  stored: number;
  /** The entry the result was offloaded to. */
  entry?: string;
  entryName?: string;
}

/** One turn of the turn log, summarized. */
export interface TurnSummary {
  turnId: string;
  session: string;
  tsStart: number;
  tsEnd: number;
  query: string;
  mode: string;
  finalKind: string;
  model: string;
  steps: StepSummary[];
}

/** The reply of `GET …/observation`: what the model was shown at the step that stored an entry. */
export interface ObservationReply {
  found: boolean;
  turnId?: string;
  step?: number;
  tool?: string;
  observation?: string | null;
  shownChars?: number | null;
  storedBytes?: number;
}
