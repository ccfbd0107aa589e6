import type { CommandRegistrar } from './command-registrar.js';
import { loadRuntimeCommand } from './runtime-commands.js';

/** One command as the root `--help` lists it, known without loading the module that implements it. */
export interface CommandListing {
  /** The word that selects it: `read`. */
  name: string;
  /** Its line in the command list, as commander writes it: `read [options] <name>`. */
  term: string;
  /** Its description in the command list. */
  summary: string;
}

/** A module of the `scratchpad` CLI: the commands it registers, in order, and how to load it. */
export interface CommandModule {
  commands: readonly CommandListing[];
  /** Imports the module (only when one of its commands runs or shows its own help) and returns its registrar. */
  load(): Promise<CommandRegistrar>;
}

/**
 * Every command of the `scratchpad` CLI, in the order `--help` lists them. Each module is imported only when the
 * command line selects one of its commands, so `--help`, `--version` and `read` load nothing they do not use.
 * `command-table.test.ts` checks each listing against what its module registers.
 */
export const COMMAND_TABLE: readonly CommandModule[] = [
  {
    commands: [
      {
        name: 'write',
        term: 'write [options] <name> [file]',
        summary: 'store stdin under NAME (streamed; any size)',
      },
    ],
    load: async () => (await import('./commands/write-command.js')).registerWriteCommand,
  },
  {
    commands: [
      { name: 'read', term: 'read [options] <name>', summary: 'print an entry, or a slice of it, to stdout' },
    ],
    load: async () => (await import('./commands/read-command.js')).registerReadCommand,
  },
  {
    commands: [
      {
        name: 'edit',
        term: 'edit [options] <name>',
        summary: 'replace text in an entry (exactly one occurrence unless --all)',
      },
      { name: 'list', term: 'list [options]', summary: "list the session's entries" },
      { name: 'delete', term: 'delete [options] <name>', summary: 'delete an entry' },
      {
        name: 'search',
        term: 'search [options] <query>',
        summary: "ranked full-text search over the session's entries",
      },
    ],
    load: async () => (await import('./commands/entry-commands.js')).registerEntryCommands,
  },
  {
    commands: [
      {
        name: 'sessions',
        term: 'sessions [action] [id]',
        summary: 'list sessions; "sessions show ID" or "sessions delete ID" (deletes every entry in it)',
      },
      {
        name: 'gc',
        term: 'gc',
        summary:
          'remove expired entries and abandoned partial writes, free what deleted entries kept for readers; enforce the size cap',
      },
      { name: 'stats', term: 'stats', summary: 'totals for the whole store' },
    ],
    load: async () => (await import('./commands/store-commands.js')).registerStoreCommands,
  },
  {
    commands: [
      {
        name: 'notes',
        term: 'notes [options] [action]',
        summary: 'session notes that survive compaction: show (default), set or append (content from stdin)',
      },
    ],
    load: async () => (await import('./commands/notes-command.js')).registerNotesCommand,
  },
  {
    commands: [
      {
        name: 'mcp',
        term: 'mcp [options]',
        summary: 'run an MCP server with the scratchpad tools for one session (stdio by default)',
      },
    ],
    load: async () => (await import('./commands/mcp-command.js')).registerMcpCommand,
  },
  {
    commands: [
      {
        name: 'proxy',
        term: 'proxy [options] [command] [args...]',
        summary:
          'serve an upstream MCP server (a command over stdio, or --url) through the scratchpad: large results are stored, previews shown',
      },
    ],
    load: async () => (await import('./commands/proxy-command.js')).registerProxyCommand,
  },
  {
    commands: [
      {
        name: 'run',
        term: 'run [options] <query>',
        summary:
          'run one agent turn: the model plans with signed executors, large results go to the scratchpad',
      },
    ],
    load: () => loadRuntimeCommand('registerRunCommand', ['run']),
  },
  {
    commands: [
      {
        name: 'executor',
        term: 'executor',
        summary: 'sign and verify executors (folders with manifest.json and code)',
      },
    ],
    load: () => loadRuntimeCommand('registerExecutorCommand', ['executor']),
  },
  {
    commands: [
      {
        name: 'mnestome',
        term: 'mnestome',
        summary:
          "which executor's output was piped into which (the mnestome); ager: let rarely used passages fade",
      },
    ],
    load: () => loadRuntimeCommand('registerMnestomeCommand', ['mnestome']),
  },
  {
    commands: [
      {
        name: 'scheduler',
        term: 'scheduler',
        summary:
          'recurring upkeep: fade unused passages (apply_ager), suggest compositions (synt_suggest), store gc',
      },
    ],
    load: () => loadRuntimeCommand('registerSchedulerCommand', ['scheduler']),
  },
  {
    commands: [
      {
        name: 'ui',
        term: 'ui [options]',
        summary: 'serve a local web inspector for sessions, entries, turns and context use',
      },
    ],
    load: async () => (await import('./commands/ui-command.js')).registerUiCommand,
  },
];
