import { randomBytes } from 'node:crypto';
import { collectAsync } from '../../../core/collect-async.js';
import type { Entry } from '../../../core/entry.js';
import { ScratchpadError } from '../../../core/errors.js';
import type { SessionScratchpad } from '../../../service/scratchpad.js';
import type { JournalMetadata, MemoryLayout, MemoryNodeKind, NodeMetadata } from './memory-layout.js';

/** What transactions need: the naming layout, a clock, and when a pending journal counts as abandoned. */
export interface TransactionOptions {
  layout: MemoryLayout;
  now: () => number;
  /** A pending transaction older than this belongs to a writer that died; the next command rolls it back. */
  timeoutMs: number;
}

/** A change of many entries that must become visible at once. */
export interface TransactionPlan {
  command: JournalMetadata['command'];
  from: string;
  to?: string;
  /** Existing node entries that disappear on commit (their versions are the ones the plan was made from). */
  remove: Array<{ entry: Entry; metadata: NodeMetadata }>;
  /** Nodes that appear on commit; a file copies the content of `copyOf` (one of the removed entries). */
  add: Array<{ path: string; kind: MemoryNodeKind; copyOf?: Entry }>;
}

/** Entry options shared by everything the memory directory writes: memories do not expire and are not evicted. */
export const KEEP = { ttlMs: null, pinned: true } as const;

/**
 * Applies a plan as one atomic step for readers, using only per-entry compare-and-set:
 *
 * 1. write a journal entry `pending`;
 * 2. flag every removed entry with the transaction (CAS on the version the plan saw, so a concurrent change aborts
 *    the plan instead of being lost); flagged entries stay visible and no writer changes them;
 * 3. write every added node flagged with the transaction (`create`: never over an existing entry); readers skip
 *    added entries until the journal commits;
 * 4. commit: one CAS write of the journal to `committed`. This is the switch: before it readers see the old tree,
 *    after it the new one (added visible, removed hidden);
 * 5. clean up: unflag added entries, delete removed ones, delete the journal.
 *
 * A failure before the commit rolls back (delete added, unflag removed); if even that fails, readers still see the
 * old tree and the next command (or any command after `timeoutMs`) finishes the rollback. A failure after the commit
 * leaves the new tree visible and the next command finishes the cleanup.
 */
export async function runTransaction(
  session: SessionScratchpad,
  plan: TransactionPlan,
  options: TransactionOptions,
): Promise<void> {
  const { layout } = options;
  const journal: JournalMetadata = {
    id: randomBytes(8).toString('hex'),
    state: 'pending',
    command: plan.command,
    startedAt: options.now(),
    from: plan.from,
    ...(plan.to === undefined ? {} : { to: plan.to }),
  };
  const journalName = layout.journalName(journal.id);
  const started = await session.write(journalName, '', {
    mode: 'create',
    metadata: layout.journalMetadata(journal),
    ...KEEP,
  });
  let committed: Entry;
  try {
    const flagged = new Map<string, Entry>();
    for (const { entry, metadata } of plan.remove) {
      const updated = await session.update(entry.name, {
        ifVersion: entry.version,
        metadata: layout.nodeMetadata({
          path: metadata.path,
          kind: metadata.kind,
          transaction: journal.id,
          role: 'remove',
        }),
      });
      flagged.set(updated.name, updated);
    }
    for (const node of plan.add) {
      const content = node.copyOf
        ? await readExactly(session, flagged.get(node.copyOf.name) ?? node.copyOf)
        : '';
      await session.write(layout.nodeName(node.path), content, {
        mode: 'create',
        kind: 'text',
        metadata: layout.nodeMetadata({
          path: node.path,
          kind: node.kind,
          transaction: journal.id,
          role: 'add',
        }),
        ...KEEP,
      });
    }
    committed = await session.update(journalName, {
      ifVersion: started.entry.version,
      metadata: layout.journalMetadata({ ...journal, state: 'committed' }),
    });
  } catch (error) {
    await abandonTransaction(session, options, journalName).catch(() => undefined);
    throw error;
  }
  await finishTransaction(session, options, committed).catch(() => undefined);
}

/**
 * Completes the transactions a listing shows: committed and aborted ones are finished, and pending ones older than
 * the timeout are abandoned (their owner died). Returns true when it changed anything, so the caller lists again.
 */
export async function settleTransactions(
  session: SessionScratchpad,
  entries: Entry[],
  options: TransactionOptions,
): Promise<boolean> {
  let changed = false;
  for (const entry of entries) {
    const journal = options.layout.journalOf(entry);
    if (!journal) continue;
    if (journal.state !== 'pending') await finishTransaction(session, options, entry);
    else if (options.now() - journal.startedAt >= options.timeoutMs)
      await abandonTransaction(session, options, entry.name);
    else continue;
    changed = true;
  }
  return changed;
}

/**
 * Ends a transaction that will not commit: marks its journal `aborted` (a CAS, so an owner that is still alive
 * fails its commit instead of racing the rollback) and rolls it back. A journal found already committed is rolled
 * forward instead: the switch happened, so the new tree stays.
 */
async function abandonTransaction(
  session: SessionScratchpad,
  options: TransactionOptions,
  journalName: string,
): Promise<void> {
  const current = await ignoreRace(session.get(journalName));
  const journal = current && options.layout.journalOf(current);
  if (!current || !journal) return;
  if (journal.state !== 'pending') return finishTransaction(session, options, current);
  const aborted = await ignoreRace(
    session.update(journalName, {
      ifVersion: current.version,
      metadata: options.layout.journalMetadata({ ...journal, state: 'aborted' }),
    }),
  );
  if (aborted) await finishTransaction(session, options, aborted);
}

/**
 * Rolls a committed or aborted transaction's members forward or back, then deletes its journal. Members are found
 * by listing (so a write that landed but whose reply was lost is not missed); every step is a CAS that tolerates
 * another writer having done it already.
 */
async function finishTransaction(
  session: SessionScratchpad,
  options: TransactionOptions,
  journalEntry: Entry,
): Promise<void> {
  const { layout } = options;
  const journal = layout.journalOf(journalEntry);
  if (!journal || journal.state === 'pending') return;
  const committed = journal.state === 'committed';
  for (const entry of await collectAsync(session.entries({ prefix: layout.prefix }))) {
    const metadata = layout.nodeOf(entry);
    if (metadata?.transaction !== journal.id) continue;
    const keep = (metadata.role === 'add') === committed;
    await ignoreRace(
      keep
        ? session.update(entry.name, {
            ifVersion: entry.version,
            metadata: layout.nodeMetadata({ path: metadata.path, kind: metadata.kind }),
          })
        : session.delete(entry.name, { ifVersion: entry.version }),
    );
  }
  await ignoreRace(session.delete(journalEntry.name, { ifVersion: journalEntry.version }));
}

/** The full text of an entry, provided it is still at the version the caller holds. */
async function readExactly(session: SessionScratchpad, entry: Entry): Promise<string> {
  const result = await session.read(entry.name);
  if (result.entry.version !== entry.version) {
    throw new ScratchpadError(
      'VERSION_CONFLICT',
      `Memory entry "${entry.name}" changed while it was being moved.`,
      {
        hint: 'Retry the command.',
      },
    );
  }
  return result.content;
}

/** Awaits a CAS step; `undefined` when another writer got there first (changed or removed the entry). */
async function ignoreRace<T>(step: Promise<T>): Promise<T | undefined> {
  try {
    return await step;
  } catch (error) {
    if (
      ScratchpadError.hasCode(error, 'VERSION_CONFLICT') ||
      ScratchpadError.hasCode(error, 'ENTRY_NOT_FOUND')
    )
      return undefined;
    throw error;
  }
}
