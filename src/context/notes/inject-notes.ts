/** Options for {@link injectNotes}. */
export interface InjectNotesOptions {
  /** Steer text the host prepends to this message; it goes first: steer → scratchpad → user message. */
  steer?: string;
}

/**
 * The block seed 001 prepends to a user message: `[Session Scratchpad - your persistent working memory]\n…\n[End
 * Scratchpad]\n\n`. Pure: the same notes always give the same bytes, so a prompt cache keeps hitting while the notes
 * do not change. Empty notes give an empty block (nothing is injected).
 */
export function formatNotesBlock(notes: string): string {
  if (!notes) return '';
  return `[Session Scratchpad - your persistent working memory]\n${notes}\n[End Scratchpad]\n\n`;
}

/**
 * `message` as the model should receive it: steer text (if any), then the notes block (if the notes are not empty),
 * then the message. Pure and deterministic.
 */
export function injectNotes(message: string, notes: string, options: InjectNotesOptions = {}): string {
  const block = formatNotesBlock(notes);
  return options.steer ? `${options.steer}\n\n${block}${message}` : `${block}${message}`;
}
