import { ScratchpadError } from '../core/errors.js';
import { LinearRegex } from '../core/linear-regex.js';
import { BUILTIN_SECRET_PATTERNS, isPlaceholder } from '../core/redaction/secret-patterns.js';
import {
  type CompiledSecretPattern,
  LOOKAHEAD,
  MAX_REACH,
  redactionMarker,
  WINDOW,
} from '../core/redaction/secret-window.js';

/**
 * The redactor as it was before the one-pass prefilter (issue 28): every built-in pattern runs over every window
 * in turn. Kept, unchanged in what it outputs, as the oracle the fast redactor is tested against (same text, same
 * counts, same refusals) and as the anchor `npm run bench:redaction` times it against. Not for production use.
 */
export function perPatternScan(text: string): { text: string; counts: Record<string, number> } {
  const counts: Record<string, number> = {};
  if (text.length === 0) return { text, counts };
  let out = '';
  for (let start = 0; start < text.length; ) {
    const window = redactNextWindow(text, start, oraclePatterns(), counts);
    out += window.text;
    start = window.end;
  }
  return { text: out, counts };
}

let compiled: readonly CompiledSecretPattern[] | undefined;

function oraclePatterns(): readonly CompiledSecretPattern[] {
  compiled ??= BUILTIN_SECRET_PATTERNS.map((source) => {
    const regex = LinearRegex.compile(source.pattern, {
      ignoreCase: source.ignoreCase === true,
      multiline: source.multiline === true,
    });
    return {
      kind: source.kind,
      regex,
      groups: regex.groupCount,
      escapesAsBreaks: source.kind !== 'private-key',
    };
  });
  return compiled;
}

/** The letter of a JSON line-end or tab escape (after its backslash). */
const ESCAPE_LETTER = /(?<=\\)[nrt]/g;
interface RedactedWindow {
  end: number;
  text: string;
}

/** Windows of at least this size are preferred: a match starting before it moves the cut past the match. */
const MIN_WINDOW = WINDOW / 8;

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
function redactNextWindow(
  text: string,
  start: number,
  patterns: readonly CompiledSecretPattern[],
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
 * that match's extent in `read`'s own positions.
 */
function redactPasses(
  read: string,
  cut: number,
  readsToEnd: boolean,
  patterns: readonly CompiledSecretPattern[],
): PassesOutcome {
  // RE2 works on code points: lone surrogates become U+FFFD (one unit, so positions stay) in the text matched,
  // and the output keeps the original units everywhere outside a secret.
  let current = read;
  const wellFormed = read as string & { isWellFormed(): boolean; toWellFormed(): string };
  let matchable = wellFormed.isWellFormed() ? read : wellFormed.toWellFormed();
  let broken = matchable.includes('\\') ? matchable.replace(ESCAPE_LETTER, '\u0001') : matchable;
  let cutAt = cut;
  const history: Edit[][] = [];
  const counts: Record<string, number> = {};
  for (const pattern of patterns) {
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
