/**
 * The agent runtime of seed 002, as a library: `llm-scratchpad-runtime`. Run a turn or a query, load the
 * config and its tiers, manage signed executors and the sandbox around them, the vaglio, the pre-filter, the
 * mnestome and compose, and the scheduler.
 *
 * The model providers have their own entry points, so that importing one loads one SDK:
 * `llm-scratchpad-runtime/ollama`, `llm-scratchpad-runtime/openai` and `llm-scratchpad-runtime/anthropic`.
 * This entry point loads none of them: `resolveModel` imports the configured provider's SDK on the model's first
 * request.
 *
 * Every export below is deliberate (test/public-api.test.ts pins the list); the rest of `packages/runtime/src/` is
 * internal and may change in any release.
 */

// Compose: chains of executors for a desired signature, and suggestions for missing ones.
export {
  type ComposeRequest,
  compose,
  findChain,
  type SyntOutcome,
  suggestExecutor,
} from './compose/index.js';
// Configuration: `config.toml`, tiers and the model each tier resolves to.
export {
  configFilePath,
  DEFAULT_MODELS,
  defaultRuntimeConfig,
  type Environment,
  type LoadRuntimeConfigOptions,
  loadRuntimeConfig,
  type ModelOverrides,
  PROVIDER_ALIASES,
  type ProviderName,
  parseRuntimeConfig,
  type ResolvedTier,
  type ResolveModelOptions,
  RUNTIME_DEFAULTS,
  type RuntimeConfig,
  type RuntimeMode,
  resolveModel,
  resolveTier,
  TIERS,
  type Tier,
  type TierSettings,
} from './config/index.js';
// Executors: signed manifests and code, the catalog, signing keys, and one sandboxed run.
export {
  type ContentReceiver,
  type DiscardedExecutor,
  defaultExecutorsDir,
  defaultKeyDir,
  type EnsureShippedExecutorsOptions,
  type EnsureShippedExecutorsResult,
  type Executor,
  type ExecutorLimits,
  type ExecutorManifest,
  type ExecutorOutcome,
  type ExecutorRun,
  ensureShippedExecutors,
  generateSigningKey,
  type LoadCatalogOptions,
  type LoadCatalogResult,
  type LoadOrCreateSigningKeyResult,
  loadCatalog,
  loadOrCreateSigningKey,
  loadSigningKey,
  loadTrustedKeys,
  parseExecutorManifest,
  type RunExecutorOptions,
  runExecutor,
  SHIPPED_EXECUTOR_NAMES,
  type SignExecutorResult,
  type SigningKey,
  saveSigningKey,
  shippedExecutorsDir,
  signExecutor,
  type TrustedKey,
  type VerifyExecutorResult,
  verifyExecutor,
} from './executors/index.js';
// The mnestome: what worked before (passages and their signatures).
export { defaultMnestomePath, Mnestome, type Passage, type StoredPassage } from './mnestome/index.js';
// The language-model interface every provider implements, and a scripted model for tests.
export {
  createScriptedModel,
  type FinishReason,
  type GenerateOptions,
  type GenerateResult,
  type LanguageModel,
  type ModelCallLog,
  type ModelCallPurpose,
  type ModelMessage,
  type ModelToolCall,
  type ModelToolDefinition,
  type ResponseFormat,
  type ScriptedModel,
  type ScriptedModelConfig,
  type ScriptedReply,
  type ScriptedResponse,
  type ScriptedStep,
} from './model/index.js';
// Modes: the hybrid mode's settings (a turn picks its mode with `runTurn`'s `mode`).
export { defaultHybridSettings, type EscalationTrigger, type HybridSettings } from './modes/index.js';
// Turns and queries: one user turn through the planner loop; a one-shot query.
export {
  type FinalKind,
  type PlannedCall,
  type RunQueryOptions,
  type RunQueryResult,
  type RunTurnOptions,
  runQuery,
  runTurn,
  type StepOutcome,
  type TurnEvent,
  type TurnLogRecord,
  type TurnMode,
  type TurnResult,
  turnLogFile,
} from './planner/index.js';
// The pre-filter: which executors a turn's planner sees.
export {
  createPrefilter,
  type Prefilter,
  type PrefilterCandidate,
  type PrefilterEntry,
  type PrefilterSelection,
} from './prefilter/index.js';
// Errors: the codes the runtime owns (docs/errors.md), each a `ScratchpadError` of the library.
export type { RuntimeErrorCode } from './runtime-errors.js';
// The operating-system sandbox every executor call runs in (bubblewrap on Linux).
export {
  type BubblewrapSandboxConfig,
  type CreateSandboxOptions,
  createBubblewrapSandbox,
  createNoSandbox,
  createSandbox,
  defaultSandboxSettings,
  detectSandbox,
  probeBubblewrap,
  type Sandbox,
  type SandboxPlan,
  type SandboxRequest,
  type SandboxSettings,
  type SandboxStatus,
} from './sandbox/index.js';
// The scheduler: recurring maintenance tasks and their daemon.
export {
  builtinTasks,
  createScheduler,
  defaultSchedulerStatePath,
  type OpenScheduler,
  type OpenSchedulerOptions,
  openScheduler,
  parseSchedule,
  runSchedulerDaemon,
  type Schedule,
  type Scheduler,
  type SchedulerConfig,
  type SchedulerDaemonOptions,
  type TaskContext,
  type TaskDefinition,
  type TaskRun,
  type TaskStatus,
} from './scheduler/index.js';
// A summarizer over any language model, for the offload policy's `summarize` preview.
export { createModelSummarizer, SUMMARIZER_SYSTEM_PROMPT } from './summarizer/index.js';
// Tiers: one language model and system prompt per tier.
export {
  type CreateTierModelsOptions,
  createTierModels,
  loadTierPrompts,
  shippedTierPrompts,
  singleModelTiers,
  type TierModel,
  type TierModels,
  type TierPrompts,
} from './tiers/index.js';
// The vaglio: the guard and the model judge between a planned call and its execution.
export {
  type BlockedBy,
  createModelJudge,
  createVaglio,
  DEFAULT_JUDGE_THRESHOLD,
  defaultJudgeSettings,
  type JudgeKind,
  type JudgeSetting,
  type JudgeSettings,
  type JudgeTier,
  type ModelJudge,
  type ModelJudgeConfig,
  type ModelJudgement,
  type Vaglio,
  type VaglioAction,
  type VaglioConfig,
  type VaglioLogRecord,
  type Verdict,
  vaglioLogFile,
} from './vaglio/index.js';
