import { z } from 'zod';
import { ScratchpadError } from '../../core/errors.js';

/** Seed 001's default budget for session notes, in tokens. */
export const DEFAULT_NOTES_MAX_TOKENS = 2000;

/**
 * Seed 001's configuration (`scratchpad: { enabled: true, maxTokens: 2000 }`): when `enabled` is false the notes tool
 * is not offered and nothing is injected.
 */
const notesConfigSchema = z.object({
  enabled: z.boolean().default(true),
  maxTokens: z.number().int().positive().default(DEFAULT_NOTES_MAX_TOKENS),
});

/** The resolved notes configuration. */
export type NotesConfig = z.output<typeof notesConfigSchema>;

/** Applies the defaults to `input` and validates it; throws `CONFIG_INVALID` saying what is wrong. */
export function resolveNotesConfig(input: unknown = {}): NotesConfig {
  const parsed = notesConfigSchema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .map((issue) => `${issue.path.join('.') || 'config'}: ${issue.message}`)
    .join('; ');
  throw new ScratchpadError('CONFIG_INVALID', `Invalid scratchpad notes configuration: ${problems}.`, {
    hint: `Use { enabled: true|false, maxTokens: a positive integer (default ${DEFAULT_NOTES_MAX_TOKENS}) }.`,
    details: {
      issues: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    },
  });
}
