/**
 * The text of a tool result for providers without an error flag on tool messages (Ollama, OpenAI): an error
 * result is prefixed with `Error: ` so the model still sees that the call failed, unless its text already opens
 * with `Error` (every `formatError` text does), which would only say it twice.
 */
export function toolResultText(message: { content: string; isError?: boolean }): string {
  if (!message.isError || /^Error\b/.test(message.content)) return message.content;
  return `Error: ${message.content}`;
}
