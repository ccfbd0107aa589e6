/**
 * The text of a tool result for providers without an error flag on tool messages (Ollama, OpenAI): an error
 * result is prefixed with `Error: ` so the model still sees that the call failed.
 */
export function toolResultText(message: { content: string; isError?: boolean }): string {
  return message.isError ? `Error: ${message.content}` : message.content;
}
