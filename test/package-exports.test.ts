import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './helpers/built-cli.js';

const root = fileURLToPath(new URL('../', import.meta.url));

beforeAll(() => {
  builtCli();
}, 120_000);

/** Imports `specifier` in a fresh Node process and returns the CommonJS modules it loaded and its export names. */
function load(specifier: string): { modules: string[]; exports: string[] } {
  const script = `
    import { createRequire } from 'node:module';
    const loaded = await import(${JSON.stringify(specifier)});
    const require = createRequire(import.meta.url);
    console.log(JSON.stringify({ modules: Object.keys(require.cache), exports: Object.keys(loaded) }));
  `;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' }),
  );
}

describe('package entry points (built dist)', () => {
  it('the root export loads no optional backend: neither pg nor a SQLite binding', () => {
    const { modules, exports } = load('llm-scratchpad');
    expect(modules.some((path) => /node_modules\/pg\//.test(path))).toBe(false);
    expect(modules.some((path) => /@photostructure\/sqlite|sqlite-binding\.js/.test(path))).toBe(false);
    expect(exports).toEqual(
      expect.arrayContaining([
        'createScratchpad',
        'ScratchpadError',
        'createMemoryDriver',
        'openStore',
        'createOffloader',
        'resolveReferences',
        'createSessionNotes',
        'compactMessages',
        'createSummaryCache',
        'isMaskedStub',
        'estimateTokens',
        'createRedactor',
      ]),
    );
  });

  it('every subpath resolves and exports its factory', () => {
    expect(load('llm-scratchpad/sqlite').exports).toContain('createSqliteDriver');
    expect(load('llm-scratchpad/fs').exports).toContain('createFsDriver');
    expect(load('llm-scratchpad/memory').exports).toContain('createMemoryDriver');
    const postgres = load('llm-scratchpad/postgres');
    expect(postgres.exports).toContain('createPostgresDriver');
    // pg is loaded lazily, when a driver connects without a pool of its own.
    expect(postgres.modules.some((path) => /node_modules\/pg\//.test(path))).toBe(false);
    expect(load('llm-scratchpad/tools').exports).toEqual(
      expect.arrayContaining([
        'createDefaultPreset',
        'wrapTools',
        'toOpenAITools',
        'toAnthropicTools',
        'toAISDKTools',
        'createPreset',
      ]),
    );
    expect(load('llm-scratchpad/mcp').exports).toEqual(
      expect.arrayContaining(['createMcpServer', 'startMcpProxy']),
    );
    expect(load('llm-scratchpad-runtime').exports).toEqual(
      expect.arrayContaining([
        'runTurn',
        'runQuery',
        'createVaglio',
        'createPrefilter',
        'loadCatalog',
        'createModelJudge',
        'createTierModels',
        'createModelSummarizer',
        'Mnestome',
        'compose',
        'createScheduler',
        'openScheduler',
      ]),
    );
    expect(load('llm-scratchpad/extension').exports).toEqual(
      expect.arrayContaining(['parseConfigSection', 'StateDatabase', 'scratchpadDataDir']),
    );
    expect(load('llm-scratchpad/cli').exports).toContain('table');
    expect(load('llm-scratchpad/ui').exports).toContain('serveUi');
    expect(load('llm-scratchpad-runtime/cli').exports).toContain('registerRunCommand');
    expect(load('llm-scratchpad/test').exports).toEqual(
      expect.arrayContaining(['runStoreContract', 'startFakeOllama']),
    );
  });
});
