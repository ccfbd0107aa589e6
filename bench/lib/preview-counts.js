/**
 * The count check of `npm run bench:previews`: every count an observation states is exact for the whole output, or
 * marked as not exact (`≈` an estimate, `≥` a lower bound) with the note that says so.
 *
 * Counts are recounted from the output itself, independently of the preview's code, wherever a fixed rule can:
 * - `N lines` in the header and the preview's first line: the output's lines (split on `\n`, no empty last line);
 * - `N error lines` (fatal, warning, notice): the output's lines `lineSignal` gives that level;
 * - `[×N]` beside a line with a level: between the lines that are that line with other digits (surely of its kind)
 *   and the lines with a level and as many words (every kind is a template of a fixed number of words).
 * Any other count (kinds, rows, column values, element counts, name families, `[×N]` beside a rare value) cannot be
 * recounted by a rule of its own: it passes when the output was read whole (it is then counted over all of it) and
 * must be marked when the preview read a sample. Each count is reported as `exact`, `marked` or `whole-read`, and
 * every other one is a problem.
 */

const LEVELS = { fatal: 4, error: 3, warning: 2, notice: 1 };
const NUMBER = String.raw`\d+(?:,\d{3})*`;

/** Lines of `text` split on `\n`, without the empty last line a final `\n` leaves. */
function outputLines(text) {
  if (text.length === 0) return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function value(number) {
  return Number(number.replaceAll(',', ''));
}

/** Lines split into words as a line's kind is made of (spaces and tabs; at most 48). */
function words(line) {
  return line
    .slice(0, 2000)
    .split(/[ \t\r\f\v]+/)
    .filter(Boolean)
    .slice(0, 48);
}

/**
 * Checks the counts of one observation. `observation` is the text the model reads, `preview` the preview inside it
 * (or `undefined` for a format without one), `content` the output, `lineSignal` the library's level reader.
 * Returns `{ checked: [{ claim, status }], problems: [string] }`.
 */
export function checkCounts({ observation, preview, content, lineSignal }) {
  const checked = [];
  const problems = [];
  const lines = outputLines(content);
  const note = (claim, status, detail) => {
    checked.push({ claim, status });
    if (status === 'problem') problems.push(`${claim}: ${detail}`);
  };
  const header = observation.split('\n')[0] ?? '';
  const headerLines = new RegExp(`, (${NUMBER}) lines; `).exec(header);
  if (headerLines) {
    const stated = value(headerLines[1]);
    note(
      `header: ${headerLines[1]} lines`,
      stated === lines.length ? 'exact' : 'problem',
      `the output has ${lines.length}`,
    );
  }
  if (preview === undefined || preview.length === 0) return { checked, problems };
  const sampled = /read from a [\d.]+ [KMGT]?B sample of/.test(preview);
  const estimateNote = /estimated from [\d.]+ [KMGT]?B of [\d.]+ [KMGT]?B|estimated from its first/.test(
    preview,
  );
  const boundNote = /≥: counted in|≥ are lower bounds/.test(preview);
  const marked = (prefix) => (prefix === '≈' && estimateNote) || (prefix === '≥' && boundNote);
  let severities;
  const levelCount = (level) => {
    severities ??= lines.reduce(
      (counts, line) => {
        const signal = lineSignal(line);
        if (signal) counts[signal.severity]++;
        return counts;
      },
      [0, 0, 0, 0, 0],
    );
    return severities[level];
  };
  const first = preview.split('\n')[0] ?? '';
  // The first line: lines, kinds, rows and lines of each level.
  for (const match of first.matchAll(
    new RegExp(`(≈|≥)?(${NUMBER}) (lines?|kinds|rows|(fatal|error|warning|notice) lines?)\\b`, 'g'),
  )) {
    const [, prefix, number, what, level] = match;
    const claim = `${prefix ?? ''}${number} ${what}`;
    if (prefix) {
      note(claim, marked(prefix) ? 'marked' : 'problem', `${prefix} without the note that explains it`);
      continue;
    }
    if (level || /^lines?$/.test(what)) {
      const actual = level ? levelCount(LEVELS[level]) : lines.length;
      note(claim, value(number) === actual ? 'exact' : 'problem', `the output has ${actual}`);
      continue;
    }
    note(claim, sampled ? 'problem' : 'whole-read', 'counted in a sample and not marked');
  }
  // Values counted in the shape (a CSV column's `"rain" 641`, a JSON key's `("ok" 12, "failed" 3)`, `true 9`).
  const shape = [];
  for (const line of preview.split('\n').slice(1)) {
    if (/^(?:First lines|Last lines|Stands out|Rare lines|Lines about|Outline|New names|Example )/.test(line))
      break;
    shape.push(line);
  }
  for (const line of shape) {
    for (const match of line.matchAll(
      new RegExp(`(?:"[^"]*"|\\btrue|\\bfalse|null in) (≈|≥)?(${NUMBER})(?![\\d.…])`, 'g'),
    )) {
      const [claim, prefix] = match;
      if (prefix) note(claim, marked(prefix) ? 'marked' : 'problem', `${prefix} without its note`);
      else note(claim, sampled ? 'problem' : 'whole-read', 'counted in a sample and not marked');
    }
  }
  // `[×N]` beside a shown line, and `×N` of elements and name families.
  for (const line of preview.split('\n')) {
    const multiplicity = new RegExp(`^ {2}-?[\\d~]+ \\[×(≈|≥)?(${NUMBER})\\]: (.*)$`).exec(line);
    if (multiplicity) {
      const [, prefix, number, shown] = multiplicity;
      const claim = `[×${prefix ?? ''}${number}] ${shown.slice(0, 60)}`;
      if (prefix) {
        note(claim, marked(prefix) ? 'marked' : 'problem', `${prefix} without its note`);
        continue;
      }
      if (!lineSignal(shown)) {
        note(claim, sampled ? 'problem' : 'whole-read', 'counted in a sample and not marked');
        continue;
      }
      const { low, high } = kindBounds(shown, lines, lineSignal);
      const stated = value(number);
      note(
        claim,
        stated >= low && stated <= high ? 'exact' : 'problem',
        `lines of its kind are between ${low} and ${high}`,
      );
      continue;
    }
    for (const match of line.matchAll(new RegExp(`\\w ×(≈|≥)?(${NUMBER})\\b`, 'g'))) {
      const [claim, prefix] = match;
      if (prefix) note(claim, marked(prefix) ? 'marked' : 'problem', `${prefix} without its note`);
      else note(claim, sampled ? 'problem' : 'whole-read', 'counted in a sample and not marked');
    }
  }
  return { checked, problems };
}

/**
 * The fewest and most lines of the output that can be of the kind of `shown` (a clipped line is matched by its
 * start): at least the lines that equal it once digits are masked, at most the lines with a level and as many words.
 */
function kindBounds(shown, lines, lineSignal) {
  const clipped = /… \[\+[\d,]+ chars\]$/.test(shown);
  const start = shown.replace(/… \[\+[\d,]+ chars\]$/, '');
  const masked = (text) => text.replace(/\d+/g, '0');
  const target = masked(start);
  const count = words(start).length;
  let low = 0;
  let high = 0;
  for (const line of lines) {
    const trimmed = line.trimEnd();
    const same = clipped ? masked(trimmed).startsWith(target) : masked(trimmed) === target;
    if (!lineSignal(line)) continue;
    if (same) low++;
    // A clipped line's last word may be cut: any number of words from there on.
    if (clipped ? words(line).length >= count - 1 : words(line).length === count) high++;
  }
  return { low, high };
}
