import { type InjectNotesOptions, injectNotes } from '../../../context/notes/inject-notes.js';
import { type NotesConfig, resolveNotesConfig } from '../../../context/notes/notes-config.js';
import { createSessionNotes, type SessionNotes } from '../../../context/notes/session-notes.js';
import type { SessionTranscript } from '../../../context/notes/session-transcript.js';
import type { Scratchpad, SessionScratchpad } from '../../../service/scratchpad.js';
import type { Preset } from '../../preset.js';
import { openclawSystemPrompt } from './openclaw-system-prompt.js';
import { createSessionScratchpadTool } from './session-scratchpad-tool.js';

/** Options of {@link createOpenclawPreset}: seed 001's configuration plus where each session's transcript is. */
export interface OpenclawPresetOptions {
  /** Offer the tool and inject the notes (default true). */
  enabled?: boolean;
  /** Token budget of the notes (default 2000). */
  maxTokens?: number;
  /** The JSONL transcript of a session, when the host keeps one (notes are recorded there and restored from it). */
  transcript?: (sessionId: string) => SessionTranscript | undefined;
}

/** The `openclaw` preset: seed 001's `session.scratchpad` tool, its guidance, and the per-turn injection. */
export interface OpenclawPreset extends Preset {
  readonly name: 'openclaw';
  readonly config: NotesConfig;
  /** The notes of a session; one object per session and store, shared with the tool (it is the seed's Map). */
  notes(session: SessionScratchpad): SessionNotes;
  /**
   * The user message as the model should receive it: steer → notes block → message. When disabled, only the steer
   * text is added. Call it once per user turn, on the newest message (see `injectIntoLatestUserMessage`).
   */
  inject(session: SessionScratchpad, message: string, options?: InjectNotesOptions): Promise<string>;
}

/**
 * Creates the `openclaw` preset (seed 001). Disabled: no tools, no system prompt, no injection. Throws
 * `CONFIG_INVALID` for a bad `enabled` or `maxTokens`.
 */
export function createOpenclawPreset(options: OpenclawPresetOptions = {}): OpenclawPreset {
  const config = resolveNotesConfig({ enabled: options.enabled, maxTokens: options.maxTokens });
  const bySession = new WeakMap<Scratchpad, Map<string, SessionNotes>>();
  const notes = (session: SessionScratchpad): SessionNotes => {
    let sessions = bySession.get(session.scratchpad);
    if (!sessions) {
      sessions = new Map();
      bySession.set(session.scratchpad, sessions);
    }
    let found = sessions.get(session.id);
    if (!found) {
      const transcript = options.transcript?.(session.id);
      found = createSessionNotes({
        session,
        maxTokens: config.maxTokens,
        ...(transcript ? { transcript } : {}),
      });
      sessions.set(session.id, found);
    }
    return found;
  };
  return {
    name: 'openclaw',
    config,
    tools: config.enabled ? [createSessionScratchpadTool({ notesFor: notes })] : [],
    systemPrompt: config.enabled ? openclawSystemPrompt(config.maxTokens) : '',
    notes,
    async inject(session, message, injectOptions = {}) {
      if (!config.enabled) return injectNotes(message, '', injectOptions);
      return notes(session).inject(message, injectOptions);
    },
  };
}
