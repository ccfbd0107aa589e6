import type { Command } from 'commander';
import type { Entry } from '../../core/entry.js';
import { formatBytes, formatCount } from '../../core/format.js';
import { DEFAULT_LIST_LIMIT, type ListOrder } from '../../service/listing/list-options.js';
import { indexingMessage } from '../../service/search/indexing-message.js';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from '../../service/search/search-limit.js';
import type { CliContext } from '../cli-context.js';
import { indexingProgressLine } from '../indexing-progress-line.js';
import { nonNegativeInteger, positiveInteger } from '../parse-number.js';
import { table } from '../text-table.js';

/** `edit`, `list`, `delete`, `search`: the per-entry commands besides write/read. */
export function registerEntryCommands(program: Command, context: CliContext): void {
  program
    .command('edit')
    .description('replace text in an entry (exactly one occurrence unless --all)')
    .argument('<name>', 'entry name')
    .requiredOption('--old <text>', 'exact text to find')
    .requiredOption('--new <text>', 'replacement text')
    .option('--all', 'replace every occurrence')
    .option('--if-version <n>', 'only edit if the entry is at this version', nonNegativeInteger)
    .action(async (name: string, flags: { old: string; new: string; all?: boolean; ifVersion?: number }) => {
      const scratchpad = await context.scratchpad();
      const result = await scratchpad.edit(context.options.session, name, {
        oldText: flags.old,
        newText: flags.new,
        ...(flags.all ? { replaceAll: true } : {}),
        ...(flags.ifVersion === undefined ? {} : { ifVersion: flags.ifVersion }),
      });
      context.print(
        `replaced ${result.replacements} occurrence${result.replacements === 1 ? '' : 's'} in ${name} (line${result.lines.length === 1 ? '' : 's'} ${result.lines.join(', ')}); version ${result.entry.version}`,
        result,
      );
    });

  program
    .command('list')
    .description("list the session's entries")
    .option('--turn <turn>', 'only entries of this turn')
    .option('--prefix <prefix>', 'only names starting with this')
    .option('--order <order>', 'name (default), createdAt or updatedAt (oldest first)')
    .option(
      '--limit <n>',
      `entries per page (default ${DEFAULT_LIST_LIMIT}, at most 100000)`,
      positiveInteger,
    )
    .option('--cursor <cursor>', 'continue after the page that printed this cursor')
    .action(
      async (flags: { turn?: string; prefix?: string; order?: string; limit?: number; cursor?: string }) => {
        const scratchpad = await context.scratchpad();
        const { entries, nextCursor } = await scratchpad.list(context.options.session, {
          ...(flags.turn === undefined ? {} : { turn: flags.turn }),
          ...(flags.prefix === undefined ? {} : { prefix: flags.prefix }),
          ...(flags.order === undefined ? {} : { orderBy: flags.order as ListOrder }),
          ...(flags.limit === undefined ? {} : { limit: flags.limit }),
          ...(flags.cursor === undefined ? {} : { cursor: flags.cursor }),
        });
        context.print(
          entries.length === 0
            ? `(no ${flags.cursor === undefined ? '' : 'more '}entries in session ${context.options.session})`
            : table(entries.map(entryRow), ['NAME', 'KIND', 'SIZE', 'LINES', 'UPDATED', 'EXPIRES']),
          nextCursor === undefined ? { entries } : { entries, nextCursor },
        );
        if (nextCursor !== undefined && !context.options.json) {
          const filters = [
            flags.prefix === undefined ? '' : ` --prefix ${flags.prefix}`,
            flags.turn === undefined ? '' : ` --turn ${flags.turn}`,
            flags.limit === undefined ? '' : ` --limit ${flags.limit}`,
          ].join('');
          context.stderr.write(`more entries: scratchpad list${filters} --cursor ${nextCursor}\n`);
        }
      },
    );

  program
    .command('delete')
    .description('delete an entry')
    .argument('<name>', 'entry name')
    .option('--if-version <n>', 'only delete if the entry is at this version', nonNegativeInteger)
    .action(async (name: string, flags: { ifVersion?: number }) => {
      const scratchpad = await context.scratchpad();
      const entry = await scratchpad.delete(
        context.options.session,
        name,
        flags.ifVersion === undefined ? {} : { ifVersion: flags.ifVersion },
      );
      context.print(`deleted ${entry.name} (${formatBytes(entry.bytes)})`, entry);
    });

  program
    .command('search')
    .description("ranked full-text search over the session's entries")
    .argument('<query>', 'words to look for')
    .option(
      '--limit <n>',
      `most results (default ${DEFAULT_SEARCH_LIMIT}, at most ${MAX_SEARCH_LIMIT})`,
      positiveInteger,
    )
    .option(
      '--partial',
      'answer at once from the part of the session indexed so far (saying how far indexing got) instead of indexing the rest first',
    )
    .addHelpText(
      'after',
      '\nWithout --partial, search first indexes what the session still has pending, so it finds what every write\n' +
        'stored; on a terminal it shows how much is indexed on stderr. Ctrl-C stops it; what was indexed stays\n' +
        'indexed and the next search goes on from there.',
    )
    .action(async (query: string, flags: { limit?: number; partial?: boolean }) => {
      const scratchpad = await context.scratchpad();
      if (!flags.partial && query.trim().length > 0) {
        // A CLI process lives for one command: without this, it would answer from the little its search indexed.
        const progress = indexingProgressLine(context.stderr);
        try {
          await scratchpad.finishIndexing(context.options.session, { onProgress: progress.update });
        } finally {
          progress.end();
        }
      }
      const { hits, indexing } = await scratchpad.search(
        context.options.session,
        query,
        flags.limit === undefined ? {} : { limit: flags.limit },
      );
      const found =
        hits.length === 0
          ? `no entry mentions ${JSON.stringify(query)}`
          : hits.map((hit) => `${hit.entry.name}\t${hit.snippet}`).join('\n');
      context.print(indexing ? `${found}\n${indexingMessage(indexing)}` : found, hits);
    });
}

function entryRow(entry: Entry): string[] {
  return [
    entry.name,
    entry.pinned ? `${entry.kind}*` : entry.kind,
    formatBytes(entry.bytes),
    entry.kind === 'text' ? formatCount(entry.lines) : '-',
    new Date(entry.updatedAt).toISOString().replace(/\.\d+Z$/, 'Z'),
    entry.expiresAt === null ? '-' : new Date(entry.expiresAt).toISOString().replace(/\.\d+Z$/, 'Z'),
  ];
}
