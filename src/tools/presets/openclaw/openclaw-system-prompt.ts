import { DEFAULT_NOTES_MAX_TOKENS } from '../../../context/notes/notes-config.js';

/**
 * Seed 001's system-prompt section, verbatim, with the budget taken from the configuration. Depends only on
 * `maxTokens`, so the system prompt (the start of every cached prefix) never changes between turns.
 */
export function openclawSystemPrompt(maxTokens: number = DEFAULT_NOTES_MAX_TOKENS): string {
  return [
    '## Session Scratchpad',
    'You have a persistent scratchpad tool (session.scratchpad) that survives context compaction.',
    'Use it to save: multi-step plans, key findings, important decisions, accumulated state.',
    `The scratchpad is prepended to each message you receive. Budget: ~${maxTokens} tokens.`,
    'Call session.scratchpad with mode "replace" to overwrite, or "append" to add incrementally.',
  ].join('\n');
}
