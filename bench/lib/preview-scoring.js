/**
 * The scorer of `npm run bench:previews`: whether a question about a tool output can be answered from the
 * observation a model was shown, and whether a literal-minded reader gets there with at most two read calls.
 *
 * Everything here is a fixed function of the observation text, the question and its answer data (plus the stored
 * content, through the real read tool, for the reads). Nothing looks for any preview's own layout: an answer counts
 * when its text is visible, when a complete original line is visible, or when a JSON key is shown as a key.
 */

/** Words a question shares with an observation that say nothing about the output (the reader does not grep them). */
const STOPWORDS = new Set(
  `a about after all an and any are as at be been before by can could did do does each for from had has have how
  if in into is it its last like look looks many more most much no not of on one or other our show some such than
  that the their them then there these they this those to was we were what when where which who why will with
  would you your`.split(/\s+/),
);

/** Removes every whitespace character (answers may be shown re-indented or re-spaced). */
export function squash(text) {
  return text.replace(/\s+/g, '');
}

/**
 * The text a reader sees in an observation: the observation itself and, when the observation is a JSON document
 * (seed 000's synthetic observation), its string values decoded (so `\n` and `\"` read as they do to a model).
 */
export function visibleText(observation) {
  const trimmed = observation.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return observation;
  try {
    const strings = [];
    collectStrings(JSON.parse(trimmed), strings);
    return `${observation}\n${strings.join('\n')}`;
  } catch {
    return observation;
  }
}

function collectStrings(value, into) {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) collectStrings(item, into);
}

/**
 * Whether one answer is visible in `visible` (see the corpus README):
 * - a string: verbatim, or once whitespace is removed on both sides;
 * - `{line: REGEX}`: one complete original line that matches is visible (trimmed; a clipped line does not count);
 * - `{key: K}`: K is shown as a JSON key (`"K":`) or as a key or key path in a structure view (`K:`, `a.K:`,
 *   `K?:`);
 * - `{any: [...]}`: one of them.
 * `content` is the original output from {@link outputContent} (`{line}` answers are checked against its lines).
 */
export function answerVisible(answer, visible, content) {
  if (typeof answer === 'string') return visible.includes(answer) || squash(visible).includes(squash(answer));
  if ('any' in answer) return answer.any.some((option) => answerVisible(option, visible, content));
  if ('line' in answer) {
    const pattern = new RegExp(answer.line);
    for (const line of content.linesMatching(pattern)) if (visible.includes(line)) return true;
    return false;
  }
  if ('key' in answer) {
    const key = escapeRegExp(answer.key);
    return (
      new RegExp(`"${key}"\\s*:`).test(visible) ||
      new RegExp(`(?:^|[\\s.\\[\\]{},(])${key}\\??\\s*:`, 'm').test(visible)
    );
  }
  throw new Error(`Unknown answer form: ${JSON.stringify(answer)}`);
}

/**
 * The original output as the scorer reads it: its text and, cached per pattern, its trimmed non-empty lines that
 * match a `{line}` answer.
 */
export function outputContent(text) {
  const lines = text.split('\n');
  const cache = new Map();
  return {
    text,
    linesMatching(pattern) {
      let found = cache.get(pattern.source);
      if (!found) {
        found = [];
        for (const line of lines) {
          const trimmed = line.trim();
          // A `\r` before the `\n` ends the line (CRLF); it is not part of what a `$` anchors to.
          if (trimmed.length > 0 && pattern.test(line.endsWith('\r') ? line.slice(0, -1) : line))
            found.push(trimmed);
        }
        cache.set(pattern.source, found);
      }
      return found;
    },
  };
}

/** True when every answer of `question` is visible in `visible`. */
export function answered(question, visible, content) {
  return question.answers.every((answer) => answerVisible(answer, visible, content));
}

/**
 * The words of a question a reader would search for, in question order, lower-cased, deduplicated: runs of
 * letters, digits and `_`, joined by inner `-` or `.` (`blk_-757…`, `2014-07-04`, `5.0.2`, `mod_jk`), at least three
 * characters, stopwords left out.
 */
export function questionWords(text) {
  const words = [];
  for (const match of text.matchAll(/[\p{L}\p{N}_]+(?:[-.][\p{L}\p{N}_]+)*/gu)) {
    const word = match[0].toLowerCase();
    if (word.length < 3 || STOPWORDS.has(word) || words.includes(word)) continue;
    words.push(word);
  }
  return words;
}

/** The question's words that `visible` shows as a whole word (case-insensitive). */
export function sharedWords(question, visible) {
  const lower = visible.toLowerCase();
  return questionWords(question).filter((word) =>
    new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(word)}(?![\\p{L}\\p{N}_])`, 'u').test(lower),
  );
}

/**
 * The read calls a text spells out for the entry: every JSON object in it whose `name` (or `id`) is the entry's,
 * as written (`scratchpad_read {"name": "shell_exec_1", "lines": "1:40"}` gives `{name, lines}`).
 */
export function suggestedCalls(text, entry) {
  const calls = [];
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    const end = objectEnd(text, start);
    if (end === -1) continue;
    let value;
    try {
      value = JSON.parse(text.slice(start, end + 1));
    } catch {
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    if (value.name === entry.name || value.id === entry.id) calls.push(value);
  }
  return calls;
}

/** The index of the `}` that closes the object opened at `start`, skipping strings; -1 when it is not closed. */
function objectEnd(text, start) {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length && index < start + 2000; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return index;
  }
  return -1;
}

/** A case-insensitive literal search for `word` (RE2 syntax), the call a reader makes to grep for it. */
export function grepCall(entry, word) {
  return { name: entry.name, regex: escapeRegExp(word), ignore_case: true };
}

/**
 * Whether a literal-minded reader reaches every answer with at most two read calls. Its moves are the calls the
 * observation spells out, and a grep for each question word the observation shows; after the first call, also the
 * calls its result spells out and the question words it shows. Returns the calls that sufficed (empty when the
 * observation alone answers), or `null`.
 *
 * `read(call)` runs one call against the stored entry and resolves to the text the model would read.
 */
export async function reachWithReads({ question, observation, content, entry, read }) {
  const seen = visibleText(observation);
  if (answered(question, seen, content)) return [];
  const movesFrom = (text) => [
    ...suggestedCalls(text, entry),
    ...sharedWords(question.q, text).map((word) => grepCall(entry, word)),
  ];
  const first = unique(movesFrom(seen));
  for (const call of first) {
    const result = await read(call);
    const afterOne = `${seen}\n${result}`;
    if (answered(question, afterOne, content)) return [call];
  }
  for (const call of first) {
    const result = await read(call);
    const afterOne = `${seen}\n${result}`;
    const second = unique([...first, ...movesFrom(result), ...movesFrom(afterOne)]).filter(
      (next) => JSON.stringify(next) !== JSON.stringify(call),
    );
    for (const next of second) {
      if (answered(question, `${afterOne}\n${await read(next)}`, content)) return [call, next];
    }
  }
  return null;
}

function unique(calls) {
  const seen = new Set();
  return calls.filter((call) => {
    const key = JSON.stringify(call);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
