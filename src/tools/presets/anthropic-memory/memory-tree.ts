import { collectAsync } from '../../../core/collect-async.js';
import type { Entry } from '../../../core/entry.js';
import { ScratchpadError } from '../../../core/errors.js';
import type { SessionScratchpad } from '../../../service/scratchpad.js';
import type { MemoryLayout, MemoryNodeKind, NodeMetadata, TransactionState } from './memory-layout.js';
import { ancestorDirectories, isWithin, MEMORY_ROOT, parentPath } from './memory-path.js';
import { settleTransactions, type TransactionOptions } from './memory-transaction.js';

/** A file or directory as the memory directory shows it. */
export interface MemoryNode {
  /** Normalized stored-form path. */
  readonly path: string;
  readonly kind: MemoryNodeKind;
  /** The node's entry; `undefined` for the root and for a directory known only from what is below it. */
  readonly entry?: Entry;
  readonly metadata?: NodeMetadata;
  /** True while another writer's pending transaction holds the node: it must not be changed until that ends. */
  readonly busy: boolean;
}

const ROOT: MemoryNode = { path: MEMORY_ROOT, kind: 'directory', busy: false };

/** A snapshot of the visible memory directory, built from one listing of the session. */
export class MemoryTree {
  readonly #nodes = new Map<string, MemoryNode>([[MEMORY_ROOT, ROOT]]);
  readonly #children = new Map<string, string[]>();

  constructor(nodes: Iterable<MemoryNode>) {
    for (const node of nodes) this.#nodes.set(node.path, node);
    for (const node of [...this.#nodes.values()]) {
      // Walk up only until a known directory: every path is visited once, however deep the tree.
      for (let parent = parentPath(node.path); !this.#nodes.has(parent); parent = parentPath(parent)) {
        this.#nodes.set(parent, { path: parent, kind: 'directory', busy: false });
      }
    }
    for (const path of this.#nodes.keys()) {
      if (path === MEMORY_ROOT) continue;
      const parent = parentPath(path);
      const siblings = this.#children.get(parent);
      if (siblings) siblings.push(path);
      else this.#children.set(parent, [path]);
    }
  }

  /** The node at a stored-form path (the root always exists). */
  get(path: string): MemoryNode | undefined {
    return this.#nodes.get(path);
  }

  /** The nearest ancestor of `path` that is a file, if any: the path then goes through a file. */
  fileAncestor(path: string): MemoryNode | undefined {
    for (const ancestor of ancestorDirectories(path)) {
      const node = this.#nodes.get(ancestor);
      if (node?.kind === 'file') return node;
      if (!node) return undefined;
    }
    return undefined;
  }

  /** The direct children of a directory, unordered. */
  children(path: string): MemoryNode[] {
    return (this.#children.get(path) ?? []).map((child) => this.#nodes.get(child) as MemoryNode);
  }

  /** Every node, the root first, parents before children. */
  nodes(): MemoryNode[] {
    return this.subtree(MEMORY_ROOT);
  }

  /** The node at `path` and everything below it, parents before children. */
  subtree(path: string): MemoryNode[] {
    return [...this.#nodes.values()]
      .filter((node) => isWithin(node.path, path))
      .sort((a, b) => depth(a.path) - depth(b.path));
  }
}

/**
 * Lists the session's memory entries and builds the visible tree. Finished or abandoned transactions found on the
 * way are completed first (rolled forward when committed, back otherwise), so a crashed rename or delete is
 * repaired by the next command. Completing them is housekeeping: if it fails (the store refuses writes), the tree
 * is still built from the journals' states, which already decide what is visible.
 */
export async function loadMemoryTree(
  session: SessionScratchpad,
  options: TransactionOptions,
): Promise<MemoryTree> {
  for (let round = 0; ; round++) {
    const entries = await collectAsync(session.entries({ prefix: options.layout.prefix }));
    if (round < 3 && (await settleQuietly(session, entries, options))) continue;
    return new MemoryTree(visibleNodes(entries, options.layout));
  }
}

async function settleQuietly(
  session: SessionScratchpad,
  entries: Entry[],
  options: TransactionOptions,
): Promise<boolean> {
  try {
    return await settleTransactions(session, entries, options);
  } catch (error) {
    if (ScratchpadError.isInstance(error)) return false;
    throw error;
  }
}

function* visibleNodes(entries: Entry[], layout: MemoryLayout): Generator<MemoryNode> {
  const states = new Map<string, TransactionState>();
  for (const entry of entries) {
    const journal = layout.journalOf(entry);
    if (journal) states.set(journal.id, journal.state);
  }
  for (const entry of entries) {
    const metadata = layout.nodeOf(entry);
    if (!metadata) continue;
    let busy = false;
    if (metadata.transaction !== undefined) {
      const committed = states.get(metadata.transaction) === 'committed';
      if ((metadata.role === 'add') !== committed) continue;
      busy = states.get(metadata.transaction) === 'pending';
    }
    yield { path: metadata.path, kind: metadata.kind, entry, metadata, busy };
  }
}

function depth(path: string): number {
  let count = 0;
  for (const character of path) if (character === '/') count++;
  return count;
}
