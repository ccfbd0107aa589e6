import { createHash } from 'node:crypto';
import type { Entry } from '../../../core/entry.js';
import { ScratchpadError } from '../../../core/errors.js';
import type { JsonObject } from '../../../core/json.js';

/** A node of the memory directory: a file or a directory. */
export type MemoryNodeKind = 'file' | 'directory';

/** The part a node plays in a multi-entry transaction: written hidden (`add`) or hidden once committed (`remove`). */
export type TransactionRole = 'add' | 'remove';

/** What a node entry's metadata says about it (under the `memory` key). */
export interface NodeMetadata {
  path: string;
  kind: MemoryNodeKind;
  transaction?: string;
  role?: TransactionRole;
}

/** The states of a transaction journal. Only a CAS write moves a journal from `pending` on. */
export type TransactionState = 'pending' | 'committed' | 'aborted';

/** What a transaction journal's metadata says (under the `memoryTransaction` key). */
export interface JournalMetadata {
  id: string;
  state: TransactionState;
  command: 'rename' | 'delete';
  /** Epoch ms from the layout's clock: a pending journal older than the timeout belongs to a dead writer. */
  startedAt: number;
  from: string;
  to?: string;
}

const NAMESPACE_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,39}$/;
const NODE_SUFFIX = /^[0-9a-f]{64}$/;
const JOURNAL_SUFFIX = /^txn-([0-9a-f]{16})$/;

/**
 * How the memory directory maps onto entries of one session.
 *
 * - Every file and every directory is one entry named `<namespace>.<sha256 hex of its normalized path>`: fixed
 *   length (any path length works), only `[0-9a-f]`, and one name per path. The path itself is kept in the entry's
 *   metadata (`{memory: {path, kind}}`) and checked on load, so a hash collision or a foreign entry under the
 *   namespace is ignored instead of being read as someone else's file.
 * - A file's content is the entry's text; a directory is an empty entry with `kind: 'directory'` (so empty
 *   directories exist, as `mkdir` makes them). Ancestors of any node count as directories even without their
 *   entry, so a tree whose directory entry was lost still lists and deletes normally.
 * - A multi-entry change (rename, deleting a directory) is journaled in `<namespace>.txn-<16 hex>`: see
 *   `memory-transaction.ts`.
 */
export class MemoryLayout {
  readonly namespace: string;

  constructor(namespace = 'memory') {
    if (!NAMESPACE_PATTERN.test(namespace)) {
      throw new ScratchpadError(
        'INVALID_ARGUMENT',
        `Invalid memory namespace ${JSON.stringify(namespace)}.`,
        {
          hint: 'Use 1-40 characters of [A-Za-z0-9._-], not starting with ".".',
        },
      );
    }
    this.namespace = namespace;
  }

  /** The prefix every entry of the memory directory starts with. */
  get prefix(): string {
    return `${this.namespace}.`;
  }

  /** The entry name of the node at a normalized (stored-form) path. */
  nodeName(path: string): string {
    return `${this.prefix}${createHash('sha256').update(path, 'utf8').digest('hex')}`;
  }

  /** The entry name of a transaction journal. */
  journalName(id: string): string {
    return `${this.prefix}txn-${id}`;
  }

  /** The node an entry stores, or `undefined` when the entry is not a well-formed node of this layout. */
  nodeOf(entry: Entry): NodeMetadata | undefined {
    const suffix = entry.name.slice(this.prefix.length);
    if (!entry.name.startsWith(this.prefix) || !NODE_SUFFIX.test(suffix)) return undefined;
    const value = entry.metadata.memory;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const { path, kind, transaction, role } = value as Record<string, unknown>;
    if (typeof path !== 'string' || (kind !== 'file' && kind !== 'directory')) return undefined;
    if (this.nodeName(path) !== entry.name) return undefined;
    const node: NodeMetadata = { path, kind };
    if (typeof transaction === 'string' && (role === 'add' || role === 'remove')) {
      node.transaction = transaction;
      node.role = role;
    }
    return node;
  }

  /** The journal an entry stores, or `undefined`. */
  journalOf(entry: Entry): JournalMetadata | undefined {
    const match = JOURNAL_SUFFIX.exec(entry.name.slice(this.prefix.length));
    if (!entry.name.startsWith(this.prefix) || !match) return undefined;
    const value = entry.metadata.memoryTransaction;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const journal = value as unknown as JournalMetadata;
    if (journal.id !== match[1] || !['pending', 'committed', 'aborted'].includes(journal.state))
      return undefined;
    return journal;
  }

  /** Metadata for a node entry. */
  nodeMetadata(node: NodeMetadata): JsonObject {
    const memory: JsonObject = { path: node.path, kind: node.kind };
    if (node.transaction !== undefined && node.role !== undefined) {
      memory.transaction = node.transaction;
      memory.role = node.role;
    }
    return { memory };
  }

  /** Metadata for a journal entry. */
  journalMetadata(journal: JournalMetadata): JsonObject {
    return { memoryTransaction: { ...journal } as unknown as JsonObject };
  }
}
