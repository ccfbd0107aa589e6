import type { EntryRecord } from '../../core/entry.js';
import { isExpired } from '../entry-expiry.js';
import { assertNotLeased } from '../leases.js';
import type { ServiceContext } from '../service-context.js';
import type { WriteOptions } from '../types.js';
import type { ContentInput } from './content-input.js';
import { checkPrecondition } from './preconditions.js';

/** What a write replaces: the row as stored (an expired one included) and the live entry (`undefined` if none). */
export interface WriteTarget {
  stored: EntryRecord | undefined;
  current: EntryRecord | undefined;
}

/**
 * The target of a write to `name` whose row is `stored`, once the write's checks pass on it: `ENTRY_EXISTS` in
 * create mode, `VERSION_CONFLICT` for `ifVersion`, `ENTRY_LEASED` for another holder's lease. An expired row is
 * gone for every purpose: the write creates the name again, replacing the row.
 */
export function writeTarget(
  context: ServiceContext,
  name: string,
  stored: EntryRecord | undefined,
  options: WriteOptions,
): WriteTarget {
  const now = context.now();
  const current = stored && !isExpired(stored, now) ? stored : undefined;
  checkPrecondition(current, options.ifVersion, name, options.mode === 'create');
  assertNotLeased(current, options.holder, now);
  return { stored, current };
}

/** Contents up to this size are written on a guess: a wrong guess commits them (to PostgreSQL: sends them) twice. */
const GUESSED_BYTES = 64 * 1024;

/**
 * A target for a small replace or create without reading the entry: the record this process last committed for
 * the name, else none. The commit checks it (version and id) and a wrong guess is built again from what the
 * commit found (`replaceContent`'s `rebuild`). `undefined` where a wrong guess could do harm or cost a re-read:
 * appends (they read the entry's last chunk), `ifVersion` (its error names what is stored), size caps (they may
 * evict for the growth a guess computes), streams (they cannot be staged again), contents over 64 KiB, and
 * guesses the write's checks refuse (they may be stale: the stored row decides).
 */
export function guessTarget(
  context: ServiceContext,
  session: string,
  name: string,
  content: ContentInput,
  options: WriteOptions,
): WriteTarget | undefined {
  if (options.mode === 'append' || options.ifVersion !== undefined) return undefined;
  if (context.maxStoreBytes !== undefined || context.maxSessionBytes !== undefined) return undefined;
  const small =
    typeof content === 'string'
      ? content.length * 3 <= GUESSED_BYTES
      : content instanceof Uint8Array && content.byteLength <= GUESSED_BYTES;
  if (!small) return undefined;
  try {
    return writeTarget(context, name, context.knownRecords.get(session, name), options);
  } catch {
    return undefined;
  }
}
