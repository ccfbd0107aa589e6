/** Session notes that survive context compaction (seed 001): the store-backed notes, injection, transcript, tokens. */
export { type ChatMessageLike, injectIntoLatestUserMessage } from './inject-into-latest-user-message.js';
export { formatNotesBlock, type InjectNotesOptions, injectNotes } from './inject-notes.js';
export {
  DEFAULT_NOTES_MAX_TOKENS,
  type NotesConfig,
  notesConfigSchema,
  resolveNotesConfig,
} from './notes-config.js';
export {
  notesAppendRejectedMessage,
  notesClearedMessage,
  notesTruncatedMessage,
  notesUpdatedMessage,
} from './notes-messages.js';
export {
  createSessionNotes,
  NOTES_CUSTOM_TYPE,
  NOTES_ENTRY,
  NOTES_PREVIOUS_ENTRY,
  NOTES_UNTRUNCATED_ENTRY,
  type NotesMode,
  type NotesRestoreResult,
  type NotesUpdateResult,
  SessionNotes,
  type SessionNotesConfig,
} from './session-notes.js';
export {
  type CustomEntry,
  createSessionTranscript,
  SessionTranscript,
  type SessionTranscriptConfig,
} from './session-transcript.js';
