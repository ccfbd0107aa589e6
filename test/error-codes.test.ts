// Each layer owns its error codes (docs/errors.md): the library's in core, the runtime's and the MCP layer's in
// their own modules. This checks that the doc lists every code once, in its owner's table, with its category.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RUNTIME_ERROR_CODES, runtimeError } from '../packages/runtime/src/runtime-errors.js';
import { CLI_ERROR_CODES, cliError } from '../src/cli/cli-errors.js';
import { ERROR_CODES, ScratchpadError } from '../src/core/errors.js';
import { MCP_ERROR_CODES, mcpError } from '../src/mcp/mcp-errors.js';

const doc = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');

/** The codes of each `## …` table of the doc, by the table's heading, with the category each row gives. */
function documentedTables(): Map<string, Map<string, string>> {
  const tables = new Map<string, Map<string, string>>();
  let rows = new Map<string, string>();
  for (const line of doc.split('\n')) {
    if (line.startsWith('## ')) {
      rows = new Map();
      tables.set(line.slice(3), rows);
    }
    const row = /^\| `([A-Z_]+)` \| ([a-z-]+) \|/.exec(line);
    if (row) rows.set(row[1] as string, row[2] as string);
  }
  return tables;
}

/** Each owner: the start of its table's heading, its codes, and an error of a code (for its category). */
const OWNERS = [
  {
    heading: "The library's codes (`src/core/errors.ts`",
    codes: ERROR_CODES,
    create: (code: string) => new ScratchpadError(code as (typeof ERROR_CODES)[number], 'x'),
  },
  {
    heading: "The runtime's codes (`packages/runtime/src/runtime-errors.ts`)",
    codes: RUNTIME_ERROR_CODES,
    create: (code: string) => runtimeError(code as (typeof RUNTIME_ERROR_CODES)[number], 'x'),
  },
  {
    heading: "The CLI's codes (`src/cli/cli-errors.ts`)",
    codes: CLI_ERROR_CODES,
    create: (code: string) => cliError(code as (typeof CLI_ERROR_CODES)[number], 'x'),
  },
  {
    heading: "The MCP layer's codes (`src/mcp/mcp-errors.ts`)",
    codes: MCP_ERROR_CODES,
    create: (code: string) => mcpError(code as (typeof MCP_ERROR_CODES)[number], 'x'),
  },
];

describe('error codes by layer', () => {
  it("lists every layer's codes, in its order, in that layer's table of docs/errors.md with their category", () => {
    const tables = documentedTables();
    for (const owner of OWNERS) {
      const heading = [...tables.keys()].find((title) => title.startsWith(owner.heading));
      expect(heading, `docs/errors.md has no table "${owner.heading}…"`).toBeDefined();
      const rows = tables.get(heading as string) as Map<string, string>;
      expect([...rows.keys()]).toEqual([...owner.codes]);
      for (const code of owner.codes)
        expect(`${code}: ${rows.get(code)}`).toBe(`${code}: ${owner.create(code).category}`);
    }
  });

  it('declares no code in two layers, and documents no code that no layer declares', () => {
    const declared = OWNERS.flatMap((owner) => [...owner.codes]);
    expect(new Set(declared).size).toBe(declared.length);
    const documented = [...documentedTables().values()].flatMap((rows) => [...rows.keys()]);
    expect(documented.sort()).toEqual(declared.sort());
  });
});
