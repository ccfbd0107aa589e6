// What a user's type-check reads: a strict `tsc` of a 40-line script against the built package, through its
// `exports` as an installed copy resolves them (the scripts and the measure are bench:types' own, under bench/lib).
// The root, `/tools` and `/mcp` declare the provider shapes in the package's own types, so no provider SDK's
// declaration file is read, and `/tools` declares nothing with Node's types, so it needs no @types/node. File
// counts are deterministic for a given lockfile; timing is bench:types' business.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from './helpers/built-cli.js';

const root = fileURLToPath(new URL('../', import.meta.url));

/** What bench/lib/type-footprint.js reports for one type-check. */
interface TypeFootprint {
  declarationFiles: number;
  providerSdkFiles: number;
  packages: Record<string, number>;
  exitCode: number | null;
  errors: string[];
}

let typeFootprint: (source: string, options: { nodeTypes: boolean }) => TypeFootprint;
let providerSdks: string[];
let userScripts: Record<string, string>;

const footprints = new Map<string, TypeFootprint>();

/** The footprint of the user script on `entry`, with TypeScript's default types (none in TS 6); checked once. */
function footprintOf(entry: string): TypeFootprint {
  const script = userScripts[entry];
  if (script === undefined) throw new Error(`No user script for ${entry}`);
  const known = footprints.get(entry) ?? typeFootprint(script, { nodeTypes: false });
  footprints.set(entry, known);
  return known;
}

beforeAll(async () => {
  ensureBuilt();
  // Plain JavaScript under bench/, imported by path so the test measures exactly as the bench does.
  const footprint = await import(join(root, 'bench/lib/type-footprint.js'));
  typeFootprint = footprint.typeFootprint;
  providerSdks = footprint.PROVIDER_SDKS;
  userScripts = (await import(join(root, 'bench/lib/type-check-scripts.js'))).USER_SCRIPTS;
}, 180_000);

describe('type-checking a user script against the built package', () => {
  for (const entry of ['llm-scratchpad/tools', 'llm-scratchpad', 'llm-scratchpad/mcp']) {
    it(`${entry}: the script type-checks (strict, TypeScript's default types) and reads no provider SDK declaration file`, () => {
      const result = footprintOf(entry);
      expect(result.errors).toEqual([]);
      expect(result.exitCode).toBe(0);
      expect(result.providerSdkFiles).toBe(0);
      expect(Object.keys(result.packages).filter((name) => providerSdks.includes(name))).toEqual([]);
      // The count is of something: TypeScript's lib files and the package's own declarations are read.
      expect(result.packages.typescript).toBeGreaterThan(0);
      expect(result.packages['llm-scratchpad']).toBeGreaterThan(0);
    }, 120_000);
  }

  it("llm-scratchpad/tools declares nothing with Node's types: a script on it type-checks without @types/node", () => {
    const result = footprintOf('llm-scratchpad/tools');
    expect(result.exitCode).toBe(0);
    expect(result.packages['@types/node']).toBeUndefined();
    expect(result.packages['undici-types']).toBeUndefined();
  }, 120_000);
});
