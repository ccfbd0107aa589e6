import type { Entry } from '../../../core/entry.js';
import { ScratchpadError } from '../../../core/errors.js';
import { toWellFormedText } from '../../../core/utf8.js';
import type { SessionScratchpad } from '../../../service/scratchpad.js';
import type {
  MemoryCommand,
  MemoryCreateCommand,
  MemoryDeleteCommand,
  MemoryInsertCommand,
  MemoryRenameCommand,
  MemoryStrReplaceCommand,
  MemoryViewCommand,
} from './memory-commands.js';
import { MemoryToolError, memoryErrors } from './memory-errors.js';
import { DIRECTORY_SIZE, formatFileSize, MAX_LINES, numberedLine } from './memory-format.js';
import { MemoryLayout } from './memory-layout.js';
import {
  ancestorDirectories,
  baseName,
  isWithin,
  MEMORY_ROOT,
  resolveMemoryPath,
  storedForm,
} from './memory-path.js';
import { KEEP, runTransaction, type TransactionOptions } from './memory-transaction.js';
import { loadMemoryTree, type MemoryNode, type MemoryTree } from './memory-tree.js';

/** Options of a {@link MemoryDirectory}. */
export interface MemoryDirectoryOptions {
  /** Prefix of the entry names the directory uses in its session (default `memory`). */
  namespace?: string;
  /** After how long a rename or delete left pending by a crashed writer is rolled back (default 30 s). */
  transactionTimeoutMs?: number;
  /** Clock in epoch milliseconds (tests inject one). */
  now?: () => number;
}

/** A path after validation: normalized (for messages) and in stored form (to find the node). */
interface Located {
  path: string;
  key: string;
}

const MAX_ATTEMPTS = 5;

/**
 * Anthropic's `/memories` directory kept in a scratchpad session. Each method answers one memory command exactly as
 * the SDK's `BetaLocalFilesystemMemoryTool` does (same result texts; failures throw a {@link MemoryToolError} with
 * the SDK's message), so an instance also works as the SDK's handlers: `betaMemoryTool(new MemoryDirectory(session))`.
 * How paths map to entries: {@link MemoryLayout}. Renames and directory deletes are atomic for readers
 * (`runTransaction`); every single-entry change is a compare-and-set, retried on a concurrent change.
 */
export class MemoryDirectory {
  readonly session: SessionScratchpad;
  readonly layout: MemoryLayout;
  readonly #transactions: TransactionOptions;

  constructor(session: SessionScratchpad, options: MemoryDirectoryOptions = {}) {
    this.session = session;
    this.layout = new MemoryLayout(options.namespace);
    this.#transactions = {
      layout: this.layout,
      now: options.now ?? Date.now,
      timeoutMs: options.transactionTimeoutMs ?? 30_000,
    };
  }

  /** Runs any command. */
  run(command: MemoryCommand): Promise<string> {
    switch (command.command) {
      case 'view':
        return this.view(command);
      case 'create':
        return this.create(command);
      case 'str_replace':
        return this.str_replace(command);
      case 'insert':
        return this.insert(command);
      case 'delete':
        return this.delete(command);
      case 'rename':
        return this.rename(command);
    }
  }

  /** A directory listing two levels deep with sizes, or a file with numbered lines. */
  view(command: MemoryViewCommand): Promise<string> {
    return this.#retrying(async () => {
      const tree = await this.#load();
      const target = locate(tree, command.path);
      const node = tree.get(target.key);
      if (!node) throw memoryErrors.doesNotExist(command.path);
      if (node.kind === 'directory') return listDirectory(tree, node, command.path);
      const lines = (await this.#readFile(node)).split('\n');
      if (lines.length > MAX_LINES) throw memoryErrors.tooManyLines(command.path, lines.length, MAX_LINES);
      let shown = lines;
      let first = 1;
      const range = command.view_range;
      if (range && range.length === 2) {
        const startLine = Math.max(1, range[0] as number) - 1;
        const endLine = range[1] === -1 ? lines.length : range[1];
        shown = lines.slice(startLine, endLine);
        first = startLine + 1;
      }
      const numbered = shown.map((line, index) => numberedLine(index + first, line));
      return `Here's the content of ${command.path} with line numbers:\n${numbered.join('\n')}`;
    });
  }

  /** Creates a file and its missing parent directories. */
  create(command: MemoryCreateCommand): Promise<string> {
    return this.#retrying(async () => {
      const tree = await this.#load();
      const target = locate(tree, command.path);
      if (tree.get(target.key)) throw memoryErrors.fileExists(command.path);
      await this.#makeDirectories(tree, ancestorDirectories(target.key));
      // As the SDK's filesystem tool stores it: a file on disk holds a lone surrogate as U+FFFD.
      await this.session.write(this.layout.nodeName(target.key), toWellFormedText(command.file_text), {
        mode: 'create',
        kind: 'text',
        metadata: this.layout.nodeMetadata({ path: target.key, kind: 'file' }),
        ...KEEP,
      });
      return `File created successfully at: ${command.path}`;
    });
  }

  /** Replaces the unique line-local occurrence of `old_str`; answers with the changed lines in context. */
  str_replace(command: MemoryStrReplaceCommand): Promise<string> {
    return this.#retrying(async () => {
      const { node, content } = await this.#openFileForEdit(command.path);
      const lines = content.split('\n');
      const matching: number[] = [];
      lines.forEach((line, index) => {
        if (line.includes(command.old_str)) matching.push(index + 1);
      });
      if (matching.length === 0) throw memoryErrors.noMatch(command.old_str, command.path);
      if (matching.length > 1) throw memoryErrors.multipleMatches(command.old_str, matching);
      const updated = content.replace(command.old_str, () => command.new_str);
      await this.#rewrite(node, updated);
      const newLines = updated.split('\n');
      const changed = (matching[0] as number) - 1;
      const start = Math.max(0, changed - 2);
      const end = Math.min(newLines.length, changed + 3);
      const snippet = newLines.slice(start, end).map((line, index) => numberedLine(start + index + 1, line));
      return `The memory file has been edited. Here is the snippet showing the change (with line numbers):\n${snippet.join('\n')}`;
    });
  }

  /** Inserts text after line `insert_line` (0 = before the first line). */
  insert(command: MemoryInsertCommand): Promise<string> {
    return this.#retrying(async () => {
      const { node, content } = await this.#openFileForEdit(command.path);
      const lines = content.split('\n');
      if (command.insert_line < 0 || command.insert_line > lines.length) {
        throw memoryErrors.invalidInsertLine(command.insert_line, lines.length);
      }
      lines.splice(command.insert_line, 0, command.insert_text.replace(/\n$/, ''));
      await this.#rewrite(node, lines.join('\n'));
      return `The file ${command.path} has been edited.`;
    });
  }

  /** Deletes a file, or a directory and everything below it (atomically for readers). */
  delete(command: MemoryDeleteCommand): Promise<string> {
    return this.#retrying(async () => {
      const tree = await this.#load();
      const target = locate(tree, command.path);
      if (target.path === MEMORY_ROOT) throw memoryErrors.cannotDeleteRoot();
      if (!tree.get(target.key)) throw memoryErrors.doesNotExistShort(command.path);
      const stored = storedNodes(tree.subtree(target.key));
      const [only] = stored;
      if (stored.length === 1 && only)
        await this.session.delete(only.entry.name, { ifVersion: only.entry.version });
      else
        await runTransaction(
          this.session,
          { command: 'delete', from: target.key, remove: stored, add: [] },
          this.#transactions,
        );
      return `Successfully deleted ${command.path}`;
    });
  }

  /** Moves a file or a directory with everything below it (atomically for readers). */
  rename(command: MemoryRenameCommand): Promise<string> {
    return this.#retrying(async () => {
      let tree = await this.#load();
      const source = locate(tree, command.old_path);
      const destination = locate(tree, command.new_path);
      if (source.path === MEMORY_ROOT) throw memoryErrors.cannotRenameRoot();
      if (tree.get(destination.key)) throw memoryErrors.destinationExists(command.new_path);
      // The SDK creates the destination's parents before it looks at the source, and keeps them if the move fails.
      if (await this.#makeDirectories(tree, ancestorDirectories(destination.key))) tree = await this.#load();
      const moved = tree.get(source.key);
      if (!moved) throw memoryErrors.doesNotExistShort(command.old_path);
      if (moved.kind === 'directory' && isWithin(destination.key, source.key)) {
        throw memoryErrors.renameIntoItself(source.path, destination.path);
      }
      const nodes = tree.subtree(source.key);
      await runTransaction(
        this.session,
        {
          command: 'rename',
          from: source.key,
          to: destination.key,
          remove: storedNodes(nodes),
          add: nodes.map((node) => ({
            path: destination.key + node.path.slice(source.key.length),
            kind: node.kind,
            ...(node.kind === 'file' && node.entry ? { copyOf: node.entry } : {}),
          })),
        },
        this.#transactions,
      );
      return `Successfully renamed ${command.old_path} to ${command.new_path}`;
    });
  }

  #load(): Promise<MemoryTree> {
    return loadMemoryTree(this.session, this.#transactions);
  }

  /** The file an edit works on, with its text at the version the edit will compare-and-set against. */
  async #openFileForEdit(path: string): Promise<{ node: MemoryNode; content: string }> {
    const tree = await this.#load();
    const target = locate(tree, path);
    const node = tree.get(target.key);
    if (!node) throw memoryErrors.doesNotExist(path);
    if (node.kind !== 'file') throw memoryErrors.notAFile(path);
    assertNotBusy([node]);
    return { node, content: await this.#readFile(node) };
  }

  async #readFile(node: MemoryNode): Promise<string> {
    const entry = node.entry as Entry;
    const result = await this.session.read(entry.name);
    if (result.entry.version !== entry.version) throw changedMeanwhile(node.path);
    return result.content;
  }

  async #rewrite(node: MemoryNode, content: string): Promise<void> {
    const entry = node.entry as Entry;
    await this.session.write(entry.name, toWellFormedText(content), {
      ifVersion: entry.version,
      kind: 'text',
      metadata: this.layout.nodeMetadata({ path: node.path, kind: 'file' }),
      ...KEEP,
    });
  }

  /** `mkdir -p`: writes a directory entry for each of `paths` (outermost first) the tree lacks. True if it wrote any. */
  async #makeDirectories(tree: MemoryTree, paths: string[]): Promise<boolean> {
    let made = false;
    for (const path of paths) {
      if (tree.get(path)) continue;
      await this.session.write(this.layout.nodeName(path), '', {
        mode: 'create',
        kind: 'text',
        metadata: this.layout.nodeMetadata({ path, kind: 'directory' }),
        ...KEEP,
      });
      made = true;
    }
    return made;
  }

  /** Runs a command again (from a fresh listing) when a concurrent writer changed an entry it was about to change. */
  async #retrying(command: () => Promise<string>): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await command();
      } catch (error) {
        const raced =
          !(error instanceof MemoryToolError) &&
          (ScratchpadError.hasCode(error, 'VERSION_CONFLICT') ||
            ScratchpadError.hasCode(error, 'ENTRY_EXISTS'));
        if (!raced) throw error;
        if (attempt >= MAX_ATTEMPTS) {
          // A store-level ENTRY_EXISTS names a hashed entry, meaningless to the model: say what happened instead.
          if (!ScratchpadError.hasCode(error, 'ENTRY_EXISTS')) throw error;
          throw new ScratchpadError(
            'VERSION_CONFLICT',
            'The memory directory kept changing under this command.',
            {
              hint: 'Another command is writing the same paths; retry in a moment.',
              cause: error,
            },
          );
        }
      }
    }
  }
}

/** Validates a path as the SDK does, including `realpath`'s failure on a path that goes through a file. */
function locate(tree: MemoryTree, input: string): Located {
  const resolved = resolveMemoryPath(input);
  const key = storedForm(resolved.path);
  if (tree.fileAncestor(key)) throw memoryErrors.throughFile(resolved.path);
  return { path: resolved.path, key };
}

/** The SDK's listing: sorted names, hidden items and `node_modules` skipped, directories two levels deep. */
function listDirectory(tree: MemoryTree, directory: MemoryNode, shownPath: string): string {
  const items: string[] = [];
  const collect = (path: string, relative: string, depth: number): void => {
    const children = tree.children(path).sort((a, b) => compareUnits(baseName(a.path), baseName(b.path)));
    for (const child of children) {
      const name = baseName(child.path);
      if (name.startsWith('.') || name === 'node_modules') continue;
      const childRelative = relative ? `${relative}/${name}` : name;
      if (child.kind === 'directory') {
        items.push(`${formatFileSize(DIRECTORY_SIZE)}\t${shownPath}/${childRelative}/`);
        if (depth < 2) collect(child.path, childRelative, depth + 1);
      } else {
        items.push(`${formatFileSize(child.entry?.bytes ?? 0)}\t${shownPath}/${childRelative}`);
      }
    }
  };
  collect(directory.path, '', 1);
  const header = `Here're the files and directories up to 2 levels deep in ${shownPath}, excluding hidden items and node_modules:`;
  return `${header}\n${[`${formatFileSize(DIRECTORY_SIZE)}\t${shownPath}`, ...items].join('\n')}`;
}

/** `Array.prototype.sort`'s default order: UTF-16 code units. */
function compareUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The nodes that have an entry (a directory known only from its contents has none to move or delete). */
function storedNodes(
  nodes: MemoryNode[],
): Array<{ entry: Entry; metadata: NonNullable<MemoryNode['metadata']> }> {
  assertNotBusy(nodes);
  return nodes.flatMap((node) =>
    node.entry && node.metadata ? [{ entry: node.entry, metadata: node.metadata }] : [],
  );
}

function assertNotBusy(nodes: MemoryNode[]): void {
  const busy = nodes.find((node) => node.busy);
  if (busy) {
    throw new ScratchpadError(
      'VERSION_CONFLICT',
      `${busy.path} is being moved or deleted by another command.`,
      {
        hint: 'Retry in a moment; view the directory to see the result of the other command.',
        details: { path: busy.path },
      },
    );
  }
}

function changedMeanwhile(path: string): ScratchpadError {
  return new ScratchpadError('VERSION_CONFLICT', `${path} changed while it was being read.`, {
    hint: 'Retry the command.',
  });
}
