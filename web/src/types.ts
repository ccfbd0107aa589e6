/** The API's shapes (docs/http-api.md). */

export interface SessionInfo {
  id: string;
  entries: number;
  bytes: number;
  createdAt: number;
  updatedAt: number;
}

export interface EntrySummary {
  id: string;
  name: string;
  session: string;
  turn: string | null;
  step: number | null;
  source: string | null;
  kind: 'text' | 'binary';
  mediaType: string;
  bytes: number;
  chars: number;
  lines: number;
  createdAt: number;
  updatedAt: number;
  expiresAt: number | null;
  pinned: boolean;
  version: number;
  metadataKeys: number;
}

export interface EntryDetail extends EntrySummary {
  metadata: unknown;
}

export interface SearchHit {
  entry: EntrySummary;
  score: number;
  snippet: string;
}

export interface PageLine {
  line: number;
  text: string;
  clipped?: true;
  charStart?: number;
}

export interface GrepMatch {
  line: number;
  char: number;
  text: string;
  clipped: boolean;
}

export interface GrepReply {
  pattern: string;
  matches: GrepMatch[];
  total: number;
  complete: boolean;
  description: string;
}

export interface StepSummary {
  step: number;
  tool: string;
  outcome: string;
  shown: number | null;
  stored: number;
  entry?: string;
  entryName?: string;
}

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

export interface ObservationReply {
  found: boolean;
  turnId?: string;
  step?: number;
  tool?: string;
  observation?: string | null;
  shownChars?: number | null;
  storedBytes?: number;
}
