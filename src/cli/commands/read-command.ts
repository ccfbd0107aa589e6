import type { Command } from 'commander';
import { ScratchpadError } from '../../core/errors.js';
import type { ReadSlice } from '../../core/slice.js';
import { formatGrepLines } from '../../service/grep/grep-lines.js';
import type { EntryRef } from '../../service/types.js';
import type { CliContext } from '../cli-context.js';
import { characterRange, lineRange, nonNegativeInteger } from '../parse-number.js';

interface ReadFlags {
  id?: boolean;
  head?: number;
  tail?: number;
  range?: { start: number; end?: number };
  lines?: { start: number; end?: number };
  grep?: string;
  context?: number;
  max?: number;
  ignoreCase?: boolean;
  offset?: number;
  limit?: number;
}

/**
 * `scratchpad read NAME [slice]`: prints exactly the slice on stdout (no added newline); binary entries print
 * their raw bytes. `--grep` prints `LINE:text` per match (grep -n style).
 */
export function registerReadCommand(program: Command, context: CliContext): void {
  program
    .command('read')
    .description('print an entry, or a slice of it, to stdout')
    .argument('<name>', 'entry name (or id with --id)')
    .option('--id', 'NAME is an entry id')
    .option('--head <n>', 'the first N characters (bytes for binary)', nonNegativeInteger)
    .option('--tail <n>', 'the last N characters (bytes for binary)', nonNegativeInteger)
    .option('--range <start:end>', 'characters [START, END)', characterRange)
    .option('--lines <a:b>', 'lines A..B, 1-based inclusive, negative from the end', lineRange)
    .option('--grep <regex>', 'lines matching REGEX (RE2 syntax) with line numbers')
    .option('--context <n>', 'with --grep: lines of context', nonNegativeInteger)
    .option('--max <n>', 'with --grep: most matching lines to print (default 100)', nonNegativeInteger)
    .option('-i, --ignore-case', 'with --grep: case-insensitive')
    .option('--offset <n>', 'characters to skip', nonNegativeInteger)
    .option('--limit <n>', 'characters to print from --offset', nonNegativeInteger)
    .action(async (name: string, flags: ReadFlags) => {
      const modes = [
        flags.head,
        flags.tail,
        flags.range,
        flags.lines,
        flags.grep,
        flags.offset ?? flags.limit,
      ].filter((value) => value !== undefined);
      if (modes.length > 1)
        throw usage('give one of --head, --tail, --range, --lines, --grep, --offset/--limit');
      if (
        (flags.context !== undefined || flags.max !== undefined || flags.ignoreCase) &&
        flags.grep === undefined
      ) {
        throw usage('--context, --max and --ignore-case go with --grep');
      }
      const scratchpad = await context.scratchpad();
      const ref: EntryRef = flags.id ? { id: name } : name;
      const session = context.options.session;
      if (flags.grep !== undefined) {
        const result = await scratchpad.grep(session, ref, {
          pattern: flags.grep,
          ...(flags.context === undefined ? {} : { context: flags.context }),
          ...(flags.max === undefined ? {} : { maxMatches: Math.max(1, flags.max) }),
          ...(flags.ignoreCase ? { ignoreCase: true } : {}),
          maxLineChars: 1_000_000,
        });
        if (context.options.json) {
          context.print('', result);
          return;
        }
        const text = formatGrepLines(result);
        if (text.length > 0) context.stdout.write(`${text}\n`);
        if (!result.complete || result.matches.length < result.total)
          context.stderr.write(`${result.description}\n`);
        return;
      }
      const slice = toSlice(flags);
      if (context.options.json) {
        context.print('', await scratchpad.read(session, ref, slice));
        return;
      }
      const { pieces } = await scratchpad.stream(session, ref, slice);
      for await (const piece of pieces) {
        if (!context.stdout.write(piece))
          await new Promise((resolve) => context.stdout.once('drain', resolve));
      }
    });
}

function toSlice(flags: ReadFlags): ReadSlice {
  if (flags.head !== undefined) return { type: 'head', count: flags.head };
  if (flags.tail !== undefined) return { type: 'tail', count: flags.tail };
  if (flags.range) return { type: 'range', ...flags.range };
  if (flags.lines) return { type: 'lines', ...flags.lines };
  if (flags.offset !== undefined || flags.limit !== undefined) {
    return { type: 'offset', offset: flags.offset ?? 0, limit: flags.limit ?? Number.MAX_SAFE_INTEGER };
  }
  return { type: 'full' };
}

/** A malformed command line (exit 2). */
export function usage(message: string): ScratchpadError {
  return new ScratchpadError('INVALID_ARGUMENT', message, { details: { usage: true } });
}
