// The public API, pinned: every entry point of both packages' package.json `exports` and the exact list of values it exports.
// Adding or removing a public export is a deliberate change of this list (and of the entry point's TSDoc).
// Type-only exports do not exist at run time and are not pinned here; `npm run typecheck` covers them.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './helpers/built-cli.js';

const root = fileURLToPath(new URL('../', import.meta.url));

const PUBLIC_API: Record<string, string[]> = {
  'llm-scratchpad': [
    'containsReference',
    'defineErrorCodes',
    'describeGc',
    'formatUnknownError',
    'BUILTIN_SECRET_PATTERNS',
    'DEFAULT_CHUNK_SIZE',
    'DEFAULT_EXEMPT_TOOLS',
    'DEFAULT_NOTES_MAX_TOKENS',
    'LEASE_KEY',
    'MemoryDriver',
    'NAME_RULE',
    'NOTES_ENTRY',
    'NO_REDACTION',
    'Scratchpad',
    'ScratchpadError',
    'SessionNotes',
    'SessionScratchpad',
    'SessionTranscript',
    'binaryPreview',
    'buildPreview',
    'compactMessages',
    'countTokens',
    'createMemoryDriver',
    'createOffloadPolicy',
    'createOffloader',
    'createRedactor',
    'createScratchpad',
    'createSessionNotes',
    'createSessionTranscript',
    'createSummaryCache',
    'defaultDatabasePath',
    'errorPayload',
    'estimateTokens',
    'firstLastLinesPreview',
    'formatError',
    'headPreview',
    'headTailPreview',
    'injectIntoLatestUserMessage',
    'injectNotes',
    'isMaskedStub',
    'isValidName',
    'jsonStructurePreview',
    'loadTokenCounter',
    'loadTokenizer',
    'openStore',
    'rebuildMaskedResult',
    'resolveReferences',
    'salientPreview',
    'truncateToTokens',
  ],
  'llm-scratchpad/sqlite': [
    'DEFAULT_INLINE_BYTES',
    'RETIRED_CONTENT_RETENTION_MS',
    'SqliteDriver',
    'createSqliteDriver',
  ],
  'llm-scratchpad/fs': ['FsDriver', 'createFsDriver'],
  'llm-scratchpad/memory': ['MemoryDriver', 'createMemoryDriver'],
  'llm-scratchpad/postgres': ['PostgresDriver', 'createPostgresDriver'],
  'llm-scratchpad/tools': [
    'createMetnosReadTool',
    'createReadTool',
    'DEFAULT_MAX_ANSWER_BYTES',
    'runToolUnredacted',
    'ANTHROPIC_MEMORY_SYSTEM_PROMPT',
    'DEFAULT_READ_LIMIT',
    'DEFAULT_SYSTEM_PROMPT',
    'HARNESS_SYSTEM_PROMPT',
    'MEMORY_ROOT',
    'METNOS_READ_DESCRIPTION',
    'METNOS_READ_SCHEMA',
    'METNOS_SYSTEM_PROMPT',
    'MemoryDirectory',
    'MemoryLayout',
    'MemoryToolError',
    'NAMED_SYSTEM_PROMPT',
    'PRESET_NAMES',
    'SCRATCHPAD_PARAMETER',
    'SCRATCHPAD_TOOL_NAMES',
    'SESSION_SCRATCHPAD_DESCRIPTION',
    'SESSION_SCRATCHPAD_INPUT_SCHEMA',
    'SESSION_SCRATCHPAD_TOOL_NAME',
    'TOOL_NAMES',
    'anthropicMemoryToolDefinition',
    'availableTools',
    'createAnthropicMemoryPreset',
    'createAnthropicMemoryTool',
    'createDefaultPreset',
    'createHarnessPreset',
    'createMetnosPreset',
    'createNamedPreset',
    'createOpenclawPreset',
    'createPreset',
    'createSessionScratchpadTool',
    'defineTool',
    'errorOutput',
    'memoryToolParameters',
    'openclawSystemPrompt',
    'parseLines',
    'providerToolName',
    'runAnthropicToolUse',
    'runOpenAIResponsesCall',
    'runOpenAIToolCall',
    'runTool',
    'toAISDKTools',
    'toAnthropicTools',
    'toOpenAIResponsesTools',
    'toOpenAITools',
    'toolJsonSchema',
    'wrapTools',
  ],
  'llm-scratchpad/mcp': [
    'BoundedStdioServerTransport',
    'DEFAULT_MAX_REPLY_BYTES',
    'DEFAULT_MAX_REQUEST_BYTES',
    'ENTRY_URI_TEMPLATE',
    'EntryResources',
    'createMcpServer',
    'entryUri',
    'entryUriTemplate',
    'parseEntryUri',
    'serveHttp',
    'serveStdio',
    'startMcpProxy',
  ],
  'llm-scratchpad/ui': ['serveUi'],
  'llm-scratchpad/cli': [
    'Option',
    'isTerminal',
    'isoTime',
    'neutraliseControlCharacters',
    'table',
    'textForStdout',
  ],
  'llm-scratchpad/extension': [
    'StateDatabase',
    'clipStrings',
    'configField',
    'configFilePath',
    'configHome',
    'configProblem',
    'configReadError',
    'dataHome',
    'formatBytes',
    'formatCount',
    'localStorePaths',
    'parseConfigSection',
    'parseStoreUrl',
    'parseToml',
    'scratchpadConfigDir',
    'scratchpadDataDir',
  ],
  'llm-scratchpad-runtime': [
    'DEFAULT_JUDGE_THRESHOLD',
    'DEFAULT_MODELS',
    'Mnestome',
    'PROVIDER_ALIASES',
    'RUNTIME_DEFAULTS',
    'SHIPPED_EXECUTOR_NAMES',
    'SUMMARIZER_SYSTEM_PROMPT',
    'TIERS',
    'builtinTasks',
    'compose',
    'configFilePath',
    'createBubblewrapSandbox',
    'createModelJudge',
    'createModelSummarizer',
    'createNoSandbox',
    'createPrefilter',
    'createSandbox',
    'createScheduler',
    'createScriptedModel',
    'createTierModels',
    'createVaglio',
    'defaultExecutorsDir',
    'defaultHybridSettings',
    'defaultJudgeSettings',
    'defaultKeyDir',
    'defaultMnestomePath',
    'defaultRuntimeConfig',
    'defaultSandboxSettings',
    'defaultSchedulerStatePath',
    'detectSandbox',
    'ensureShippedExecutors',
    'findChain',
    'generateSigningKey',
    'loadCatalog',
    'loadOrCreateSigningKey',
    'loadRuntimeConfig',
    'loadSigningKey',
    'loadTierPrompts',
    'loadTrustedKeys',
    'openScheduler',
    'parseExecutorManifest',
    'parseRuntimeConfig',
    'parseSchedule',
    'probeBubblewrap',
    'resolveModel',
    'resolveTier',
    'runExecutor',
    'runQuery',
    'runSchedulerDaemon',
    'runTurn',
    'saveSigningKey',
    'shippedExecutorsDir',
    'shippedTierPrompts',
    'signExecutor',
    'singleModelTiers',
    'suggestExecutor',
    'turnLogFile',
    'vaglioLogFile',
    'verifyExecutor',
  ],
  'llm-scratchpad-runtime/ollama': ['DEFAULT_OLLAMA_HOST', 'createOllama'],
  'llm-scratchpad-runtime/openai': ['DEFAULT_OPENAI_BASE_URL', 'createOpenAICompatible'],
  'llm-scratchpad-runtime/anthropic': [
    'DEFAULT_ANTHROPIC_BASE_URL',
    'DEFAULT_ANTHROPIC_MAX_OUTPUT_TOKENS',
    'createAnthropic',
  ],
  'llm-scratchpad-runtime/cli': [
    'registerExecutorCommand',
    'registerMnestomeCommand',
    'registerRunCommand',
    'registerSchedulerCommand',
  ],
  'llm-scratchpad/test': [
    'closedPortURL',
    'runStoreContract',
    'startFakeAnthropic',
    'startFakeOllama',
    'startFakeOpenAI',
  ],
};

/** Each package of the workspace: its folder and its name (the specifiers below are `name` + subpath). */
const PACKAGES = [
  { folder: '', name: 'llm-scratchpad' },
  { folder: 'packages/runtime/', name: 'llm-scratchpad-runtime' },
];

/** Every entry point of both packages: its specifier and the module of `src/` it is built from. */
const entryPoints = PACKAGES.flatMap(({ folder, name }) => {
  const exports: Record<string, string | { default: string }> = JSON.parse(
    readFileSync(`${root}${folder}package.json`, 'utf8'),
  ).exports;
  return Object.entries(exports).flatMap(([subpath, target]) =>
    typeof target === 'object'
      ? [
          {
            specifier: `${name}${subpath.slice(1)}`,
            source: `${folder}${target.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')}`,
          },
        ]
      : [],
  );
});

describe('public API', () => {
  it('every entry point in package.json is pinned, and nothing else', () => {
    expect(entryPoints.map((entry) => entry.specifier).sort()).toEqual(Object.keys(PUBLIC_API).sort());
  });

  for (const { specifier, source } of entryPoints) {
    it(`${specifier} exports exactly its pinned values`, async () => {
      const exported = Object.keys(await import(pathToFileURL(`${root}${source}`).href)).sort();
      const pinned = PUBLIC_API[specifier] ?? [];
      const added = exported.filter((name) => !pinned.includes(name));
      const removed = pinned.filter((name) => !exported.includes(name));
      if (added.length > 0 || removed.length > 0) {
        expect.fail(
          [
            `${specifier} (${source}) no longer matches PUBLIC_API in test/public-api.test.ts.`,
            added.length > 0
              ? `Exported but not pinned (add to the pin if deliberate, else stop exporting): ${added.join(', ')}`
              : '',
            removed.length > 0
              ? `Pinned but no longer exported (remove from the pin if deliberate): ${removed.join(', ')}`
              : '',
          ]
            .filter(Boolean)
            .join('\n'),
        );
      }
    });
  }
});

/**
 * The provider SDK packages each of `specifiers` loads, imported one after the other in one fresh Node process and
 * seen by a module resolve hook (a package already loaded by an earlier specifier is counted for that one only).
 * The child appends to a file, not to its stdout: the hook thread's synchronous writes to a pipe that another
 * thread made non-blocking failed with EAGAIN on a loaded machine.
 */
function sdksLoadedBy(...specifiers: string[]): Record<string, string[]> {
  const directory = mkdtempSync(join(tmpdir(), 'scratchpad-sdks-'));
  const record = join(directory, 'loaded.txt');
  try {
    const hook = `import { appendFileSync } from 'node:fs';
const seen = new Set();
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const sdk = /node_modules\\/(ollama|openai|@anthropic-ai\\/sdk)\\//.exec(resolved.url)?.[1];
  if (sdk && !seen.has(sdk)) {
    seen.add(sdk);
    appendFileSync(${JSON.stringify(record)}, 'sdk ' + sdk + '\\n');
  }
  return resolved;
}`;
    const script = `
      import { appendFileSync } from 'node:fs';
      import { register } from 'node:module';
      register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));
      for (const specifier of ${JSON.stringify(specifiers)}) {
        appendFileSync(${JSON.stringify(record)}, 'import ' + specifier + '\\n');
        await import(specifier);
      }
    `;
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root });
    const loaded = new Map(specifiers.map((specifier) => [specifier, new Set<string>()]));
    let current: Set<string> | undefined;
    for (const line of readFileSync(record, 'utf8').split('\n').filter(Boolean)) {
      const [kind, name = ''] = line.split(' ');
      if (kind === 'import') current = loaded.get(name);
      else current?.add(name);
    }
    return Object.fromEntries(
      specifiers.map((specifier) => [specifier, [...(loaded.get(specifier) ?? [])].sort()]),
    );
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

describe('provider entry points (built dist)', () => {
  beforeAll(() => {
    builtCli();
  }, 120_000);

  it("no entry point of the library loads a provider SDK, nor the runtime's main entry (resolveModel imports one on first use)", () => {
    const others = entryPoints
      .map((entry) => entry.specifier)
      .filter((specifier) => !/^llm-scratchpad-runtime\/(ollama|openai|anthropic)$/.test(specifier));
    expect(others).toContain('llm-scratchpad-runtime');
    expect(sdksLoadedBy(...others)).toEqual(Object.fromEntries(others.map((specifier) => [specifier, []])));
  });

  it('each provider subpath loads its own SDK and no other', () => {
    expect(sdksLoadedBy('llm-scratchpad-runtime/ollama')).toEqual({
      'llm-scratchpad-runtime/ollama': ['ollama'],
    });
    expect(sdksLoadedBy('llm-scratchpad-runtime/openai')).toEqual({
      'llm-scratchpad-runtime/openai': ['openai'],
    });
    expect(sdksLoadedBy('llm-scratchpad-runtime/anthropic')).toEqual({
      'llm-scratchpad-runtime/anthropic': ['@anthropic-ai/sdk'],
    });
  });
});
