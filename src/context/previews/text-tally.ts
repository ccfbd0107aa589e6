import { eventLoopSlices } from '../../core/event-loop-slices.js';
import { lineSignal } from './line-signals.js';
import { signalScanner } from './signal-scanner.js';
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
  /**
   * The text's lines, when the caller has counted them already as the store counts them (an offload's encoding
   * does, `encodeText`): the tally then does not count them again.
   */
  lines?: number;
}

const MAX_SHAPES = 20_000;
const CHUNK_CHARS = 1 << 20;
const SLICE_MS = 20;
const BUDGET_MS = 10_000;

/**
 * Counts the lines of a whole text and its lines of each severity, exactly, in one read of it: the newlines at
 * `indexOf` speed (unless the caller gives `lines`), then a {@link signalScanner} finds the lines that may carry a
 * signal, and only those are judged by {@link lineSignal}. Both run in slices of at most `sliceMs`, yielding to the
 * event loop between them, so a 100 MB text never stalls the process. When the level scan cannot finish within
 * `budgetMs`, the tally has no `severities` (and no `shapes`).
 */
export async function tallyText(text: string, options: TallyOptions = {}): Promise<TextTally> {
  const chunkChars = Math.max(1, options.chunkChars ?? CHUNK_CHARS);
  const turn = eventLoopSlices(options.sliceMs ?? SLICE_MS);
  const lines = options.lines ?? (await countLines(text, chunkChars * 4, turn));
  const levels = await scanLevels(text, options, turn);
  return {
    chars: text.length,
    lines,
    severities: levels?.severities,
    shapes: levels?.shapes,
  };
}

/** Lines as the store counts them: split on `\n`, a last line without one counts. */
async function countLines(text: string, chunkChars: number, turn: () => Promise<void>): Promise<number> {
  let newlines = 0;
  for (let from = 0; from < text.length; from += chunkChars) {
    await turn();
    // Searched within the chunk, so a text without newlines is not searched to its end in one step.
    const part = text.slice(from, from + chunkChars);
    for (let at = part.indexOf('\n'); at !== -1; at = part.indexOf('\n', at + 1)) newlines++;
  }
  return text.length === 0 ? 0 : newlines + (text.endsWith('\n') ? 0 : 1);
}

/** The lines of each severity and the signal lines by shape; `undefined` past the budget. */
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
  const scanner = signalScanner();
  // Everything before `position` is judged; the scanner goes on from there.
  for (let position = 0; position < text.length; ) {
    if (performance.now() - started >= budgetMs) return undefined;
    await turn();
    const limit = Math.min(text.length, position + chunkChars);
    const hit = scanner.find(text, position, limit);
    if (hit === -1) {
      position = limit;
      continue;
    }
    // The line holding the hit (a hit on a line's `\n` is in the line that newline ends).
    const start = hit === 0 ? 0 : text.lastIndexOf('\n', hit - 1) + 1;
    const newline = text.indexOf('\n', hit);
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
    position = end + 1;
  }
  return { severities, shapes };
}
