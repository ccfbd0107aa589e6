import type { Command } from 'commander';
import { formatBytes, formatCount } from '../../core/format.js';
import { assertValidSession } from '../../core/names.js';
import { describeGc } from '../../service/describe-gc.js';
import type { CliContext } from '../cli-context.js';
import { table } from '../text-table.js';
import { usage } from './read-command.js';

/** `sessions`, `gc`, `stats`: the store-wide commands. */
export function registerStoreCommands(program: Command, context: CliContext): void {
  program
    .command('sessions')
    .description('list sessions; "sessions show ID" or "sessions delete ID" (deletes every entry in it)')
    .argument('[action]', 'show | delete')
    .argument('[id]', 'session id')
    .action(async (action: string | undefined, id: string | undefined) => {
      const scratchpad = await context.scratchpad();
      if (action === undefined) {
        const sessions = await scratchpad.sessions();
        context.print(
          sessions.length === 0
            ? '(no sessions)'
            : table(
                sessions.map((session) => [
                  session.id,
                  formatCount(session.entries),
                  formatBytes(session.bytes),
                  new Date(session.updatedAt).toISOString().replace(/\.\d+Z$/, 'Z'),
                ]),
                ['SESSION', 'ENTRIES', 'SIZE', 'UPDATED'],
              ),
          sessions,
        );
        return;
      }
      if (action !== 'show' && action !== 'delete')
        throw usage(`unknown sessions action ${JSON.stringify(action)}: use show or delete`);
      if (id === undefined) throw usage(`sessions ${action} needs a session id`);
      if (action === 'show') {
        const info = await scratchpad.sessionInfo(assertValidSession(id));
        context.print(`${info.id}: ${formatCount(info.entries)} entries, ${formatBytes(info.bytes)}`, info);
        return;
      }
      const freed = await scratchpad.deleteSession(id);
      context.print(
        `deleted session ${id}: ${formatCount(freed.entries)} entries, ${formatBytes(freed.bytes)}`,
        { session: id, ...freed },
      );
    });

  program
    .command('gc')
    .description(
      'remove expired entries and abandoned partial writes, free what deleted entries kept for readers; enforce the size cap',
    )
    .action(async () => {
      const scratchpad = await context.scratchpad();
      const result = await scratchpad.gc();
      context.print(describeGc(result).join('\n'), result);
    });

  program
    .command('stats')
    .description('totals for the whole store')
    .action(async () => {
      const scratchpad = await context.scratchpad();
      const totals = await scratchpad.stats();
      const store = context.storeUrl();
      context.print(
        `store: ${store} (${scratchpad.driver.backend})\nsessions: ${formatCount(totals.sessions)}\nentries: ${formatCount(totals.entries)}\nsize: ${formatBytes(totals.bytes)} (${formatBytes(totals.pinnedBytes)} pinned)`,
        { store, backend: scratchpad.driver.backend, ...totals },
      );
    });
}
