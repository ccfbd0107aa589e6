/**
 * The commands of Anthropic's memory tool (`memory_20250818`), shaped like the SDK's
 * `BetaMemoryTool20250818*Command` types so a {@link MemoryDirectory} also plugs into the SDK's `betaMemoryTool()`.
 */
export interface MemoryViewCommand {
  command: 'view';
  path: string;
  /** `[start, end]`, 1-based and inclusive; `end` -1 = to the end of the file. Other lengths are ignored. */
  view_range?: number[] | null;
}

/** Creates a file (and its missing parent directories); fails if anything exists at `path`. */
export interface MemoryCreateCommand {
  command: 'create';
  path: string;
  file_text: string;
}

/** Replaces the one occurrence of `old_str` (which must lie within one line) with `new_str`. */
export interface MemoryStrReplaceCommand {
  command: 'str_replace';
  path: string;
  old_str: string;
  new_str: string;
}

/** Inserts `insert_text` as new line(s) after line `insert_line` (0 = at the top). */
export interface MemoryInsertCommand {
  command: 'insert';
  path: string;
  insert_line: number;
  insert_text: string;
}

/** Deletes a file, or a directory with everything in it. */
export interface MemoryDeleteCommand {
  command: 'delete';
  path: string;
}

/** Moves a file or a directory (with everything in it) to a path that does not exist yet. */
export interface MemoryRenameCommand {
  command: 'rename';
  old_path: string;
  new_path: string;
}

/** Any memory command. */
export type MemoryCommand =
  | MemoryViewCommand
  | MemoryCreateCommand
  | MemoryStrReplaceCommand
  | MemoryInsertCommand
  | MemoryDeleteCommand
  | MemoryRenameCommand;
