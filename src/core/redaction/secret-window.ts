import { ScratchpadError } from '../errors.js';
import type { LinearRegex } from '../linear-regex.js';
import { isPlaceholder } from './secret-patterns.js';
import type { WitnessScan } from './secret-witnesses.js';

/** A secret pattern ready to run. */
export interface CompiledSecretPattern {
  kind: string;
  regex: LinearRegex;
  /** Capture groups: 0 = the whole match is the secret; else group 2 is, between kept groups 1 and 3. */
  groups: number;
  /**
   * Matches text in which the letter of each `\n`, `\r` and `\t` escape is read as a control character (same
   * length): in JSON text, a token after an escaped line end then starts at a word boundary, as it does in the
   * string the JSON holds.
   */
  escapesAsBreaks: boolean;
}

/** Patterns in the order they run, with the one-pass scan that tells which of them may match in a text. */
export interface SecretPatternSet {
  patterns: readonly CompiledSecretPattern[];
  mayMatch: WitnessScan;
}

/** The letter of a JSON line-end or tab escape (after its backslash). */
const ESCAPE_LETTER = /(?<=\\)[nrt]/g;

/** Characters redacted in one window, before it is moved to a safe cut (a few milliseconds of work). */
export const WINDOW = 64 * 1024;
/** Characters past a cut that every pattern also reads, to see a match that crosses the cut. */
export const LOOKAHEAD = 16 * 1024;
/** Farthest a window may reach past its start to end outside every match; past it the text is refused. */
export const MAX_REACH = 1024 * 1024;
/** Windows of at least this size are preferred: a match starting before it moves the cut past the match. */
const MIN_WINDOW = WINDOW / 8;

/** The marker that replaces a secret of `kind`. */
export function redactionMarker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

/** One redacted window: where it ends in the text, and its text with every secret replaced. */
export interface RedactedWindow {
  end: number;
  text: string;
}

/**
 * Redacts the window of `text` that starts at `start` (a cut no match crosses: 0, or the end of the window
 * before). The window ends at a cut that no match of any pattern crosses: every pattern runs, in order, over the
 * window and {@link LOOKAHEAD} more characters, and a match that crosses the cut (or runs to the end of what was
 * read) moves the cut to the match's start, or past its end when the match starts near the window's start. So
 * one-line JSON, CRLF and text without any line end are cut between matches, never inside one.
 *
 * @throws ScratchpadError `CONTENT_TOO_LARGE` when matches keep running past {@link MAX_REACH} characters from
 *   `start`: the text cannot be cut outside them, so it is refused rather than shown in part.
 */
export function redactNextWindow(
  text: string,
  start: number,
  patterns: SecretPatternSet,
  counts: Record<string, number>,
): RedactedWindow {
  let cut = preferredCut(text, start);
  let floor = start + Math.min(MIN_WINDOW, cut - start - 1);
  for (let moves = 0; ; moves++) {
    const readEnd = codePointBoundary(text, Math.min(text.length, cut + LOOKAHEAD));
    const outcome = redactPasses(text.slice(start, readEnd), cut - start, readEnd === text.length, patterns);
    if ('text' in outcome) {
      for (const [kind, count] of Object.entries(outcome.counts)) counts[kind] = (counts[kind] ?? 0) + count;
      return { end: cut, text: outcome.text };
    }
    const crossing = { start: start + outcome.crossing.start, end: start + outcome.crossing.end };
    if (crossing.start > floor && moves < 32) {
      cut = crossing.start;
    } else {
      // Past the match; a match that ran to the end of what was read may go on, so look twice as far.
      const ranToEnd = outcome.crossing.end === readEnd - start;
      cut = Math.max(crossing.end, cut + 1, ranToEnd ? start + 2 * (readEnd - start) : 0);
      cut = codePointBoundary(text, Math.min(cut, text.length));
      floor = cut;
    }
    if (cut - start > MAX_REACH) throw tooLong(outcome.crossing.kind);
  }
}

/** The first choice of cut: after the window's last line end, else its last blank, comma or quote, else its end. */
function preferredCut(text: string, start: number): number {
  if (start + WINDOW >= text.length) return text.length;
  const window = text.slice(start, start + WINDOW);
  const floor = WINDOW / 4;
  let end = window.lastIndexOf('\n') + 1;
  if (end <= floor) end = Math.max(...[' ', ',', '"', '\t'].map((stop) => window.lastIndexOf(stop))) + 1;
  if (end <= floor) end = WINDOW;
  return codePointBoundary(text, start + end);
}

/** `index`, moved back by one when it would split a surrogate pair. */
function codePointBoundary(text: string, index: number): number {
  if (index <= 0 || index >= text.length) return index;
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff ? index - 1 : index;
}

interface Edit {
  start: number;
  end: number;
  length: number;
}

type PassesOutcome =
  | { text: string; counts: Record<string, number> }
  | { crossing: { start: number; end: number; kind: string } };

/**
 * Runs every pattern in order over `read` (each on the previous one's output) and returns the redacted text up to
 * `cut`; or, when a match crosses the cut (or reaches the end of `read` before the text's end, so it may go on),
 * that match's extent in `read`'s own positions. A pattern whose witness is not in the text it would run on is
 * skipped (it cannot match there): one scan finds the witnesses of all patterns, and again after a pass that
 * replaced something, so most windows are returned after that one scan.
 */
function redactPasses(
  read: string,
  cut: number,
  readsToEnd: boolean,
  { patterns, mayMatch }: SecretPatternSet,
): PassesOutcome {
  // The witnesses are looked for in `read` as it is: making it well formed changes no ASCII character, and a match
  // in the view where escape letters are control characters holds its witness in `read` too (no witness holds one).
  let candidates = mayMatch(read);
  if (!candidates.includes(1)) return { text: read.slice(0, cut), counts: {} };
  // RE2 works on code points: lone surrogates become U+FFFD (one unit, so positions stay) in the text matched,
  // and the output keeps the original units everywhere outside a secret.
  let current = read;
  const wellFormed = read as string & { isWellFormed(): boolean; toWellFormed(): string };
  let matchable = wellFormed.isWellFormed() ? read : wellFormed.toWellFormed();
  let broken = matchable.includes('\\') ? matchable.replace(ESCAPE_LETTER, '\u0001') : matchable;
  let cutAt = cut;
  const history: Edit[][] = [];
  const counts: Record<string, number> = {};
  for (let index = 0; index < patterns.length; index++) {
    const pattern = patterns[index] as CompiledSecretPattern;
    if (candidates[index] === 0) continue;
    const edits: Edit[] = [];
    let out = '';
    let outMatchable = '';
    let outBroken = '';
    let cursor = 0;
    const view = pattern.escapesAsBreaks ? broken : matchable;
    for (const { start, end } of pattern.regex.matches(view)) {
      if (end === start) continue;
      if (start < cutAt && (end > cutAt || (!readsToEnd && end === view.length))) {
        return {
          crossing: {
            start: mapBack(start, history, 'start'),
            end: mapBack(end, history, 'end'),
            kind: pattern.kind,
          },
        };
      }
      const replacement = replacementFor(pattern, view, current, start, end);
      if (replacement === undefined) continue;
      out += current.slice(cursor, start) + replacement;
      outMatchable += matchable.slice(cursor, start) + replacement;
      outBroken += broken.slice(cursor, start) + replacement;
      cursor = end;
      edits.push({ start, end, length: replacement.length });
      if (end <= cutAt) counts[pattern.kind] = (counts[pattern.kind] ?? 0) + 1;
    }
    if (edits.length === 0) continue;
    current = out + current.slice(cursor);
    matchable = outMatchable + matchable.slice(cursor);
    broken = outBroken + broken.slice(cursor);
    let shift = 0;
    for (const edit of edits) if (edit.end <= cutAt) shift += edit.length - (edit.end - edit.start);
    cutAt += shift;
    history.push(edits);
    candidates = mayMatch(matchable);
  }
  return { text: current.slice(0, cutAt), counts };
}

/** A position after some passes, as a position in the text before them (inside a marker: its secret's bounds). */
function mapBack(position: number, history: readonly Edit[][], side: 'start' | 'end'): number {
  let mapped = position;
  for (let pass = history.length - 1; pass >= 0; pass--) {
    let delta = 0;
    let found: number | undefined;
    for (const edit of history[pass] ?? []) {
      const newStart = edit.start + delta;
      if (mapped <= newStart) break;
      if (mapped < newStart + edit.length) {
        found = side === 'start' ? edit.start : edit.end;
        break;
      }
      delta += edit.length - (edit.end - edit.start);
    }
    mapped = found ?? mapped - delta;
  }
  return mapped;
}

/**
 * The marker for the match at `start`, with its kept groups (taken from `original`, which has the same length as
 * `matchable`); `undefined` when the secret is a placeholder.
 */
function replacementFor(
  pattern: CompiledSecretPattern,
  matchable: string,
  original: string,
  start: number,
  end: number,
): string | undefined {
  if (pattern.groups < 2) return redactionMarker(pattern.kind);
  const match = pattern.regex.exec(matchable, start);
  if (match === undefined) return redactionMarker(pattern.kind);
  const [, before, secret, after] = match.groups;
  if (secret === undefined || secret.length === 0 || isPlaceholder(secret)) return undefined;
  const kept = pattern.groups >= 3 ? (after ?? '') : '';
  return `${original.slice(start, start + (before ?? '').length)}${redactionMarker(pattern.kind)}${original.slice(end - kept.length, end)}`;
}

function tooLong(kind: string): ScratchpadError {
  return new ScratchpadError(
    'CONTENT_TOO_LARGE',
    `Text that matches the secret pattern "${kind}" runs on for more than ${MAX_REACH.toLocaleString('en-US')} characters, so it cannot be redacted in pieces; it is not shown.`,
    {
      hint: 'Read a slice that starts after that run, or turn redaction off for this text if it holds no secret.',
      details: { kind, maxReach: MAX_REACH },
    },
  );
}
