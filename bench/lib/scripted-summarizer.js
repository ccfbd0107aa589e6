/**
 * A scripted stand-in for a summarizing model (no model is reachable where the benchmark runs): it writes what a
 * careful short summary would hold, from the text it is given only: the size and first line, the lines that report
 * a problem, and the last line, within the token budget (4 characters per token). It measures the pipeline (what
 * a summary preview costs in context and keeps visible), not a model's quality; `bench:live` measures a real one.
 */
export function scriptedSummarizer({ text, maxOutputTokens }) {
  const lines = text.split('\n').filter((line) => line.trim().length > 0);
  const problems = lines.filter((line) => /\b(error|exception|traceback|failed|failure|fatal)\b/i.test(line));
  const parts = [
    `${lines.length} non-empty lines. First: ${lines[0] ?? ''}`,
    ...problems.slice(0, 8).map((line) => `Problem: ${line.trim()}`),
    `Last: ${lines.at(-1) ?? ''}`,
  ];
  return Promise.resolve(parts.join('\n').slice(0, maxOutputTokens * 4));
}
