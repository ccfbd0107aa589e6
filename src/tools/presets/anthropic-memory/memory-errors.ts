import { inspect } from 'node:util';
import { ScratchpadError, type ScratchpadErrorCode } from '../../../core/errors.js';

const MEMORY_BRAND = Symbol.for('llm-scratchpad.memory-tool-error');

/**
 * A failure of one memory command, with exactly the message the Anthropic SDK's filesystem handler
 * (`BetaLocalFilesystemMemoryTool`) throws for the same input. The tool answers it as `Error: <message>` with
 * `isError: true`, which is what the SDK's tool runner sends back to the model.
 */
export class MemoryToolError extends ScratchpadError {
  readonly [MEMORY_BRAND] = true;

  constructor(code: ScratchpadErrorCode, message: string, hint?: string) {
    super(code, message, hint === undefined ? {} : { hint });
    this.name = 'MemoryToolError';
  }

  /** True only for a `MemoryToolError` (from any copy of this package), not for every `ScratchpadError`. */
  static override isInstance(value: unknown): value is MemoryToolError {
    return (
      ScratchpadError.isInstance(value) &&
      (value as unknown as Record<symbol, unknown>)[MEMORY_BRAND] === true
    );
  }
}

/** Every message of the SDK handler, in one place (SDK 1.12.0, `src/tools/memory/node.ts`). */
export const memoryErrors = {
  mustStartWithRoot: (path: string) =>
    new MemoryToolError(
      'INVALID_ARGUMENT',
      `Path must start with /memories, got: ${path}`,
      'Use an absolute path under /memories, e.g. /memories/notes.md.',
    ),
  wouldEscape: (path: string) =>
    new MemoryToolError(
      'INVALID_ARGUMENT',
      `Path ${path} would escape /memories directory`,
      'Remove ".." segments that climb above /memories.',
    ),
  /**
   * Node's own message when a path holds a NUL byte (`ERR_INVALID_ARG_VALUE`), with the virtual path where the SDK
   * prints the host's absolute path.
   */
  nulByte: (fullPath: string) => {
    let shown = inspect(fullPath);
    if (shown.length > 128) shown = `${shown.slice(0, 128)}...`;
    return new MemoryToolError(
      'INVALID_ARGUMENT',
      `The argument 'path' must be a string, Uint8Array, or URL without null bytes. Received ${shown}`,
    );
  },
  /** The error `realpath` gives when a path goes through a file (the SDK lets it through verbatim). */
  throughFile: (fullPath: string) =>
    new MemoryToolError(
      'INVALID_ARGUMENT',
      `ENOTDIR: not a directory, realpath '${fullPath}'`,
      'A file cannot contain other files.',
    ),
  doesNotExist: (path: string) =>
    new MemoryToolError(
      'ENTRY_NOT_FOUND',
      `The path ${path} does not exist. Please provide a valid path.`,
      'View /memories to see what exists.',
    ),
  /** `delete` and `rename` say it without the second sentence. */
  doesNotExistShort: (path: string) =>
    new MemoryToolError(
      'ENTRY_NOT_FOUND',
      `The path ${path} does not exist`,
      'View /memories to see what exists.',
    ),
  notAFile: (path: string) => new MemoryToolError('INVALID_ARGUMENT', `The path ${path} is not a file.`),
  fileExists: (path: string) =>
    new MemoryToolError(
      'ENTRY_EXISTS',
      `File ${path} already exists`,
      'Edit it with str_replace or insert, or delete it first.',
    ),
  destinationExists: (path: string) =>
    new MemoryToolError(
      'ENTRY_EXISTS',
      `The destination ${path} already exists`,
      'Pick another name, or delete the destination first.',
    ),
  cannotDeleteRoot: () =>
    new MemoryToolError('INVALID_ARGUMENT', 'Cannot delete the /memories directory itself'),
  cannotRenameRoot: () =>
    new MemoryToolError('INVALID_ARGUMENT', 'Cannot rename the /memories directory itself'),
  /** `rename` of a directory into itself: the `EINVAL` of `rename(2)`. */
  renameIntoItself: (oldFullPath: string, newFullPath: string) =>
    new MemoryToolError(
      'INVALID_ARGUMENT',
      `EINVAL: invalid argument, rename '${oldFullPath}' -> '${newFullPath}'`,
    ),
  noMatch: (oldText: string, path: string) =>
    new MemoryToolError(
      'EDIT_NO_MATCH',
      `No replacement was performed, old_str \`${oldText}\` did not appear verbatim in ${path}.`,
      'old_str is matched within one line; view the file and copy the text exactly.',
    ),
  multipleMatches: (oldText: string, lines: number[]) =>
    new MemoryToolError(
      'EDIT_AMBIGUOUS',
      `No replacement was performed. Multiple occurrences of old_str \`${oldText}\` in lines: ${lines.join(', ')}. Please ensure it is unique`,
    ),
  invalidInsertLine: (line: number, lineCount: number) =>
    new MemoryToolError(
      'SLICE_OUT_OF_RANGE',
      `Invalid \`insert_line\` parameter: ${line}. It should be within the range of lines of the file: [0, ${lineCount}]`,
    ),
  tooManyLines: (path: string, lineCount: number, maximum: number) =>
    new MemoryToolError(
      'CONTENT_TOO_LARGE',
      `File ${path} has too many lines (${lineCount}). Maximum is ${maximum.toLocaleString()} lines.`,
      'Split the file into smaller ones.',
    ),
} as const;
