import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseToml } from 'smol-toml';

/** The MCP clients whose setup the README documents. */
export type McpClientName = 'Claude Code' | 'Cursor' | 'VS Code' | 'Codex';

/** One server line of the README's MCP setup, as its client stores it: what it spawns, with which arguments. */
export interface DocumentedServerLine {
  client: McpClientName;
  /** The server's name in the client's configuration (`scratchpad`, `files`). */
  server: string;
  command: string;
  args: string[];
  /** The `type` field, where the client's format has one (VS Code: `stdio`). */
  type?: string;
  /** Typed into a shell (`claude mcp add …`): a word `~` or `~/…` is the user's home, expanded by the shell. */
  shell: boolean;
  /** The README's text the line was read from, for messages. */
  source: string;
}

const readmePath = fileURLToPath(new URL('../../README.md', import.meta.url));

/** The README's `### MCP …` section, up to the next heading of the same or a higher level outside code blocks. */
function mcpSection(readme: string): string {
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => /^### MCP\b/.test(line));
  if (start < 0) throw new Error('README.md has no "### MCP" section');
  let inFence = false;
  let end = start + 1;
  for (; end < lines.length; end++) {
    const line = lines[end] ?? '';
    if (line.startsWith('```')) inFence = !inFence;
    else if (!inFence && /^#{1,3} /.test(line)) break;
  }
  return lines.slice(start + 1, end).join('\n');
}

/** The fenced blocks of `text` with the given info string, in order. */
function fencedBlocks(text: string, language: string): string[] {
  const pattern = new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm');
  return [...text.matchAll(pattern)].map((match) => match[1] ?? '');
}

/**
 * Splits a documented shell line into words the way a POSIX shell would for the plain words the README uses
 * (`~` is left for {@link expandHome}). Anything this does not model (quotes, `$`, backslashes, globs) is refused
 * rather than guessed.
 */
function shellWords(line: string): string[] {
  if (/["'$`\\*?[\]{}|&;<>()]/.test(line)) {
    throw new Error(`README shell line uses syntax this test does not model: ${line}`);
  }
  return line.trim().split(/\s+/);
}

/** What the shell passes for a documented line's words: `~` and `~/…` under `home` (tilde expansion). */
export function expandHome(line: DocumentedServerLine, home: string): string[] {
  if (!line.shell) return line.args;
  return line.args.map((word) => (word === '~' || word.startsWith('~/') ? home + word.slice(1) : word));
}

/**
 * `claude mcp add [options] NAME -- COMMAND ARGS…` lines of the section's shell blocks: the servers Claude Code
 * starts as a process (a `claude mcp add --transport http NAME URL` line connects to a running server instead).
 */
function claudeCodeLines(section: string): DocumentedServerLine[] {
  const lines = fencedBlocks(section, 'sh')
    .flatMap((block) => block.split('\n'))
    .filter((line) => line.startsWith('claude mcp add ') && !line.includes(' --transport http '));
  return lines.map((line) => {
    const words = shellWords(line);
    const separator = words.indexOf('--');
    const server = words[separator - 1];
    const command = words[separator + 1];
    if (separator < 4 || server === undefined || command === undefined) {
      throw new Error(`README line is not "claude mcp add NAME -- COMMAND ARGS…": ${line}`);
    }
    const args = words.slice(separator + 2);
    return { client: 'Claude Code', server, command, args, shell: true, source: line };
  });
}

interface ServerEntry {
  command?: unknown;
  args?: unknown;
  type?: unknown;
}

/** Reads one `{command, args, type?}` entry, refusing anything that is not strings where strings belong. */
function entryLine(client: McpClientName, server: string, entry: ServerEntry, source: string) {
  const { command, args, type } = entry;
  if (typeof command !== 'string' || !Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) {
    throw new Error(`${client} entry "${server}" has no string command and string args: ${source}`);
  }
  const line: DocumentedServerLine = { client, server, command, args, shell: false, source };
  if (typeof type === 'string') line.type = type;
  return line;
}

/** Entries of the section's JSON blocks: `mcpServers` is Cursor's format, top-level `servers` VS Code's. */
function jsonLines(section: string): DocumentedServerLine[] {
  return fencedBlocks(section, 'json').flatMap((block) => {
    const config = JSON.parse(block) as {
      mcpServers?: Record<string, ServerEntry>;
      servers?: Record<string, ServerEntry>;
    };
    const cursor = Object.entries(config.mcpServers ?? {}).map(([server, entry]) =>
      entryLine('Cursor', server, entry, block),
    );
    const vscode = Object.entries(config.servers ?? {}).map(([server, entry]) =>
      entryLine('VS Code', server, entry, block),
    );
    return [...cursor, ...vscode];
  });
}

/** `[mcp_servers.NAME]` tables of the section's TOML blocks (Codex's `config.toml`). */
function codexLines(section: string): DocumentedServerLine[] {
  return fencedBlocks(section, 'toml').flatMap((block) => {
    const config = parseToml(block) as { mcp_servers?: Record<string, ServerEntry> };
    return Object.entries(config.mcp_servers ?? {}).map(([server, entry]) =>
      entryLine('Codex', server, entry, block),
    );
  });
}

/**
 * Every MCP server line the README documents for Claude Code, Cursor, VS Code and Codex, read from the README
 * itself, so a test of these lines tests what a user copies.
 */
export function readmeMcpServerLines(): DocumentedServerLine[] {
  const section = mcpSection(readFileSync(readmePath, 'utf8'));
  return [...claudeCodeLines(section), ...jsonLines(section), ...codexLines(section)];
}
