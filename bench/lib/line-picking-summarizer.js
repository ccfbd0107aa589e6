/**
 * A line-picking scripted summarizer for `npm run bench:previews`: a deterministic stand-in for the model that
 * writes the `summarize` preview, so the summary preview can be scored without one. It is not a model, and its scores say only
 * what a summary made of copied lines would give. The rule, applied to the text the summarizer is sent:
 * - the first 3 lines;
 * - then up to 6 lines that hold a word of the task (4 letters or more, not a stopword), most task words first, then
 *   in the output's order; then, while fewer than 6, lines that hold an error word (error, fail, fatal, panic,
 *   exception, warn, denied, refused, timeout, traceback), in the output's order;
 * - the last 3 lines;
 * shown in the output's order, each line once, each cut to 120 characters (a cut line ends in `…`): at most 12 lines
 * of at most 121 characters, within the preview's 400-token budget.
 */

const HEAD = 3;
const TAIL = 3;
const PICKED = 6;
const WIDTH = 120;
const ERROR_WORD = /\b(error|fail|fatal|panic|exception|warn|denied|refused|timeout|traceback)/i;
const STOPWORDS = new Set(
  'what which where when does that this with from have there their about into than then them they will would should could been were your many much some more most only also each line lines output file show shown tell'.split(
    ' ',
  ),
);

/** The task's words the rule looks for. */
export function taskWords(task) {
  const words = (task ?? '').toLowerCase().match(/[\p{L}\p{N}_.-]{4,}/gu) ?? [];
  return [...new Set(words.map((word) => word.replace(/^[.-]+|[.-]+$/g, '')))].filter(
    (word) => word.length >= 4 && !STOPWORDS.has(word),
  );
}

/** The summarizer function the offload policy's `summarize` takes. */
export async function linePickingSummarizer(request) {
  const lines = request.text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const chosen = new Set();
  for (let index = 0; index < Math.min(HEAD, lines.length); index++) chosen.add(index);
  for (let index = Math.max(0, lines.length - TAIL); index < lines.length; index++) chosen.add(index);
  const words = taskWords(request.task);
  const scored = [];
  for (let index = 0; index < lines.length; index++) {
    if (chosen.has(index)) continue;
    const lower = lines[index].toLowerCase();
    const hits = words.filter((word) => lower.includes(word)).length;
    if (hits > 0) scored.push({ index, hits });
  }
  scored.sort((a, b) => b.hits - a.hits || a.index - b.index);
  const picked = scored.slice(0, PICKED).map((item) => item.index);
  for (let index = 0; index < lines.length && picked.length < PICKED; index++) {
    if (!chosen.has(index) && !picked.includes(index) && ERROR_WORD.test(lines[index])) picked.push(index);
  }
  for (const index of picked) chosen.add(index);
  return [...chosen]
    .sort((a, b) => a - b)
    .map((index) => {
      const characters = Array.from(lines[index]);
      return characters.length > WIDTH ? `${characters.slice(0, WIDTH).join('')}…` : lines[index];
    })
    .join('\n');
}

/** How the rule reads in the bench's output. */
export const LINE_PICKING_RULE =
  'scripted line-picking summarizer (not a model; bench/lib/line-picking-summarizer.js): first 3 lines, up to 6 lines with a task word (else an error word), last 3 lines, each cut to 120 chars';
