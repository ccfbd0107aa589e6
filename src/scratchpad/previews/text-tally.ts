import { lineSignal, signalCandidates } from './line-signals.js';
import { signalShape } from './stand-outs.js';

/** Counts over a whole text, exact, for a preview that reads only a sample of it. */
export interface TextTally {
  /** Characters (UTF-16 units) of the text tallied: a preview uses the tally only for this very text. */
  chars: number;
  /** Lines, as the store counts them (split on `\n`, a last line without one counts). */
  lines: number;
  /**
   * Lines of each severity over the whole text, by {@link lineSignal} (index 1–4; index 0 unused); `undefined` when
   * the scan ran past its time budget.
   */
  severities: readonly number[] | undefined;
  /**
   * The signal lines by shape ({@link signalShape}: their start with digits masked), each with its lines of each
   * severity (index 1–4), to count them by kind; `undefined` past `maxShapes` distinct shapes (the severities are
   * still exact) or without severities.
   */
  shapes: ReadonlyMap<string, readonly number[]> | undefined;
}

/** Options for {@link tallyText}. */
export interface TallyOptions {
  /** The most distinct shapes of signal line kept for counting by kind (default 20,000). */
  maxShapes?: number;
  /** Characters scanned between checks of the clock (default 1 MiB, cut back to a line end). */
  chunkChars?: number;
  /** The longest the scan runs before it gives the event loop a turn, in milliseconds (default 20). */
  sliceMs?: number;
  /**
   * The longest the level scan may take, in milliseconds of wall time (default 10,000); past it the tally has no
   * severities and the preview marks its level counts as estimates (the line count is always made: it is cheap).
   */
  budgetMs?: number;
}

const MAX_SHAPES = 20_000;
const CHUNK_CHARS = 1 << 20;
const SLICE_MS = 20;
const BUDGET_MS = 10_000;
// Longer than any match of the candidate test (its longest alternatives are about 15 characters).
const CANDIDATE_OVERLAP = 256;

/**
 * Counts the lines of a whole text and its lines of each severity, exactly, at grep speed: the newlines first (at
 * `indexOf` speed, always to the end), then one global regex scan finds the lines that may carry a signal
 * ({@link signalCandidates}), and only those are judged by {@link lineSignal}. Both run in slices of at most
 * `sliceMs`, yielding to the event loop between them, so a 100 MB text never stalls the process. When the level
 * scan cannot finish within `budgetMs`, the tally has no `severities` (and no `signaled`).
 */
export async function tallyText(text: string, options: TallyOptions = {}): Promise<TextTally> {
  const chunkChars = Math.max(1, options.chunkChars ?? CHUNK_CHARS);
  const sliceMs = options.sliceMs ?? SLICE_MS;
  let sliceStart = performance.now();
  const turn = async () => {
    if (performance.now() - sliceStart <= sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  };
  let newlines = 0;
  for (let from = 0; from < text.length; from += chunkChars * 4) {
    await turn();
    const part = text.slice(from, from + chunkChars * 4);
    for (let at = part.indexOf('\n'); at !== -1; at = part.indexOf('\n', at + 1)) newlines++;
  }
  const lines = text.length === 0 ? 0 : newlines + (text.endsWith('\n') ? 0 : 1);
  const levels = await scanLevels(text, options, turn);
  return {
    chars: text.length,
    lines,
    severities: levels?.severities,
    shapes: levels?.shapes,
  };
}

/** The lines of each severity and where the signal lines are; `undefined` past the budget. */
async function scanLevels(
  text: string,
  options: TallyOptions,
  turn: () => Promise<void>,
): Promise<{ severities: number[]; shapes: Map<string, number[]> | undefined } | undefined> {
  const maxShapes = options.maxShapes ?? MAX_SHAPES;
  const chunkChars = Math.max(1, options.chunkChars ?? CHUNK_CHARS);
  const budgetMs = options.budgetMs ?? BUDGET_MS;
  const started = performance.now();
  const severities = [0, 0, 0, 0, 0];
  let shapes: Map<string, number[]> | undefined = new Map();
  let lastNewline = -1;
  const passNewlines = (from: number, to: number) => {
    // Within a slice, so a long line is not searched past `to`.
    const at = text.slice(from, to).lastIndexOf('\n');
    if (at !== -1) lastNewline = from + at;
  };
  const candidates = signalCandidates();
  // Everything before `position` is judged, and `lastNewline` is the last newline before it.
  for (let position = 0; position < text.length; ) {
    if (performance.now() - started >= budgetMs) return undefined;
    await turn();
    const limit = Math.min(text.length, position + chunkChars);
    // The window runs past the limit so that a match starting before it is found whole.
    const window = text.slice(position, Math.min(text.length, limit + CANDIDATE_OVERLAP));
    candidates.lastIndex = 0;
    const match = candidates.exec(window);
    if (match === null || position + match.index >= limit) {
      passNewlines(position, limit);
      position = limit;
      continue;
    }
    const at = position + match.index;
    passNewlines(position, at);
    const start = lastNewline + 1;
    const newline = text.indexOf('\n', at);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(start, end);
    const signal = lineSignal(line);
    if (signal) {
      severities[signal.severity] = (severities[signal.severity] as number) + 1;
      if (shapes) {
        const shape = signalShape(line);
        let counts = shapes.get(shape);
        if (!counts && shapes.size < maxShapes) {
          counts = [0, 0, 0, 0, 0];
          shapes.set(shape, counts);
        }
        if (counts) counts[signal.severity] = (counts[signal.severity] as number) + 1;
        else shapes = undefined;
      }
    }
    if (newline !== -1) lastNewline = newline;
    position = end + 1;
  }
  return { severities, shapes };
}
