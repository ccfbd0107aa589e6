/**
 * The acknowledgments of the `session.scratchpad` tool. The first three are seed 001's sentences, reproduced
 * exactly (plain integers, no thousands separators); the clear and conflict texts are ours.
 */

/** `Scratchpad updated (N tokens / B budget)` */
export function notesUpdatedMessage(tokens: number, budget: number): string {
  return `Scratchpad updated (${tokens} tokens / ${budget} budget)`;
}

/** `Scratchpad truncated to B tokens (original: N). Consider summarizing.` */
export function notesTruncatedMessage(budget: number, originalTokens: number): string {
  return `Scratchpad truncated to ${budget} tokens (original: ${originalTokens}). Consider summarizing.`;
}

/** `Append would exceed B token budget (current: C, append: A). Use mode 'replace' to rewrite, or reduce content.` */
export function notesAppendRejectedMessage(
  budget: number,
  currentTokens: number,
  appendTokens: number,
): string {
  return `Append would exceed ${budget} token budget (current: ${currentTokens}, append: ${appendTokens}). Use mode 'replace' to rewrite, or reduce content.`;
}

/**
 * Replace with empty content clears the notes; the acknowledgment says where the previous content went, so an
 * accidental empty replace (Mastra lost users' notes that way) is visibly recoverable.
 */
export function notesClearedMessage(budget: number, previous?: { tokens: number; entry: string }): string {
  const cleared = `Scratchpad cleared (0 tokens / ${budget} budget).`;
  if (!previous) return cleared;
  return `${cleared} The previous content (${previous.tokens} tokens) is kept in entry "${previous.entry}" and can be restored.`;
}
