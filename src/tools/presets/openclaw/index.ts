/** The `openclaw` preset (seed 001): session notes that survive context compaction. */
export {
  type ChatMessageLike,
  injectIntoLatestUserMessage,
} from '../../../context/notes/inject-into-latest-user-message.js';
export {
  formatNotesBlock,
  type InjectNotesOptions,
  injectNotes,
} from '../../../context/notes/inject-notes.js';
export { createOpenclawPreset, type OpenclawPreset, type OpenclawPresetOptions } from './openclaw-preset.js';
export { openclawSystemPrompt } from './openclaw-system-prompt.js';
export {
  createSessionScratchpadTool,
  SESSION_SCRATCHPAD_DESCRIPTION,
  SESSION_SCRATCHPAD_INPUT_SCHEMA,
  SESSION_SCRATCHPAD_TOOL_NAME,
  type SessionScratchpadInput,
} from './session-scratchpad-tool.js';
