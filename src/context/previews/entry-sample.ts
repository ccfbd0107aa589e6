import type { Entry } from '../../core/entry.js';
import type { SessionScratchpad } from '../../service/scratchpad.js';
import { type ContentSample, type SampledLine, sampleContent, splitTextLines } from './content-sample.js';

const WHOLE_LIMIT = 768 * 1024;
const HEAD_CHARS = WHOLE_LIMIT / 2;
const TAIL_CHARS = WHOLE_LIMIT / 4;
const MIDDLE_WINDOWS = 8;
const MAX_LINES = 20_000;

/** A stored text entry as a preview sees it: its sample, and its start as text (for previews that read text). */
export interface EntrySample {
  sample: ContentSample;
  /** The text of the head window (the whole text when the entry is small). */
  head: string;
}

/**
 * The lines of a stored text entry a preview reads, read from the store in windows (the same shape as
 * {@link sampleContent}: a head numbered from 1, middle windows not numbered, a tail numbered from the end), so a
 * 1 GB entry costs what a 1 MB one does and is never held whole. A small entry is read whole.
 */
export async function sampleEntry(session: SessionScratchpad, entry: Entry): Promise<EntrySample> {
  const ref = { id: entry.id };
  const window = async (offset: number, limit: number) =>
    (await session.read(ref, { type: 'offset', offset, limit })).content;
  if (entry.chars <= WHOLE_LIMIT) {
    const text = await window(0, Math.max(1, entry.chars));
    return { sample: sampleContent(text), head: text };
  }
  const lines: SampledLine[] = [];
  let sampledChars = 0;
  const headText = await window(0, HEAD_CHARS);
  const headCut = headText.lastIndexOf('\n');
  const head = headCut === -1 ? headText : headText.slice(0, headCut + 1);
  splitTextLines(head)
    .slice(0, MAX_LINES / 2)
    .forEach((text, index) => {
      lines.push({ number: index + 1, text, part: 'head' });
    });
  sampledChars += head.length;

  const tailStart = entry.chars - TAIL_CHARS;
  const span = tailStart - HEAD_CHARS;
  const windowChars = Math.floor((WHOLE_LIMIT - HEAD_CHARS - TAIL_CHARS) / MIDDLE_WINDOWS);
  for (let index = 0; index < MIDDLE_WINDOWS && span > windowChars; index++) {
    const at = HEAD_CHARS + Math.floor(((index + 0.5) * span) / MIDDLE_WINDOWS) - windowChars / 2;
    const whole = wholeLines(await window(at, windowChars));
    for (const text of whole.slice(0, MAX_LINES / 4 / MIDDLE_WINDOWS))
      lines.push({ number: undefined, text, part: 'middle' });
    sampledChars += whole.reduce((sum, text) => sum + text.length + 1, 0);
  }

  const tailText = await window(tailStart, TAIL_CHARS);
  const firstBreak = tailText.indexOf('\n');
  // The window starts inside a line (unless the entry has none): only the lines after it are whole.
  const tail = splitTextLines(firstBreak === -1 ? tailText : tailText.slice(firstBreak + 1)).slice(
    -MAX_LINES / 4,
  );
  tail.forEach((text, index) => {
    lines.push({ number: index - tail.length, text, part: 'tail' });
  });
  sampledChars += tail.reduce((sum, text) => sum + text.length + 1, 0);
  return {
    sample: { lines, complete: false, totalChars: entry.chars, sampledChars },
    head,
  };
}

/** The whole lines of a window that starts and ends inside lines. */
function wholeLines(text: string): string[] {
  const first = text.indexOf('\n');
  const last = text.lastIndexOf('\n');
  if (first === -1 || last <= first) return [];
  return splitTextLines(text.slice(first + 1, last + 1));
}
