import { ScratchpadError } from '../core/errors.js';

/** Library option names and the CLI flags that set them, as messages and hints show them on the command line. */
const FLAGS: ReadonlyArray<[RegExp, string]> = [
  [/\bifVersion\b/g, '--if-version'],
  [/\breplaceAll\b/g, '--all'],
  [/\boldText\b/g, '--old'],
  [/\bnewText\b/g, '--new'],
  [/\bmode "append"/g, '--append'],
  [/\bmode "replace"/g, 'a plain write'],
  [/\bwith kind "binary"( \(or "auto"\))?/g, 'with --kind binary'],
  [/\borderBy\b/g, '--order'],
  [/\bthe nextCursor of the previous page\b/g, 'the cursor the previous page printed'],
  [/\bleave the cursor out\b/g, 'leave --cursor out'],
  [/^limit must be\b/g, '--limit must be'],
];

function reword(text: string): string {
  let result = text;
  for (const [pattern, flag] of FLAGS) result = result.replace(pattern, flag);
  return result;
}

/** The same error worded for the command line: library option names become the flags that set them. */
export function cliWording(error: ScratchpadError): ScratchpadError {
  const message = reword(error.message);
  const hint = error.hint === undefined ? undefined : reword(error.hint);
  if (message === error.message && hint === error.hint) return error;
  return new ScratchpadError(error.code, message, {
    ...(hint === undefined ? {} : { hint }),
    details: error.details,
    cause: error,
    category: error.category,
  });
}
