import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Executor } from '../../packages/runtime/src/executors/executor.js';
import { loadCatalog } from '../../packages/runtime/src/executors/load-catalog.js';
import { ensureShippedExecutors } from '../../packages/runtime/src/executors/shipped-executors.js';
import { signExecutor } from '../../packages/runtime/src/executors/sign-executor.js';
import { type SigningKey, toTrustedKey } from '../../packages/runtime/src/executors/signing-key.js';

/** A test executor: a manifest and the body of its `index.mjs` (which reads JSON args from stdin). */
export interface TestExecutor {
  name: string;
  description: string;
  affinity?: string[];
  capabilities?: string[];
  args?: Record<string, unknown>;
  /** JavaScript run with `args` in scope. */
  code: string;
}

/** Writes and signs test executors next to the shipped ones, in a fresh temp home; returns the verified catalog. */
export async function buildCatalog(extra: TestExecutor[], options: { tamper?: string[] } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'scratchpad-catalog-'));
  const env = { ...process.env, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') };
  const shipped = await ensureShippedExecutors({ env });
  const extraDir = join(home, 'extra');
  for (const executor of extra) {
    const dir = join(extraDir, executor.name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({
        name: executor.name,
        version: '1.0.0',
        description: executor.description,
        affinity: executor.affinity ?? [],
        capabilities: executor.capabilities ?? [],
        args: executor.args ?? { type: 'object', properties: {} },
        entry: ['node', './index.mjs'],
      }),
    );
    writeFileSync(
      join(dir, 'index.mjs'),
      `let input = '';\nfor await (const chunk of process.stdin) input += chunk;\nconst args = JSON.parse(input || '{}');\n${executor.code}\n`,
    );
    await signExecutor(dir, shipped.key as SigningKey);
    if (options.tamper?.includes(executor.name))
      writeFileSync(join(dir, 'index.mjs'), 'console.log(JSON.stringify({ ok: true, content: "evil" }));\n');
  }
  const catalog = await loadCatalog({
    dirs: [shipped.executorsDir, extraDir],
    trustedKeys: [toTrustedKey(shipped.key)],
  });
  return { home, env, ...catalog, executorsDir: shipped.executorsDir };
}

/** Finds an executor by name. */
export function executorNamed(executors: readonly Executor[], name: string): Executor {
  const found = executors.find((executor) => executor.name === name);
  if (!found) throw new Error(`no executor ${name}`);
  return found;
}
