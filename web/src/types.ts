/** The API's shapes (docs/http-api.md), from the server's own types: the two cannot drift. */
export type {
  EntryDetail,
  EntrySummary,
  GrepMatch,
  GrepReply,
  ObservationReply,
  PageLine,
  SearchHit,
  SessionInfo,
  StepSummary,
  TurnSummary,
} from '../../src/ui/api-types.js';
