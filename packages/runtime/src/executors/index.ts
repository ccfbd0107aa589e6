/**
 * Signed executors: manifests, ed25519 signing and verification, the catalog loader, first-use installation of
 * the shipped executors, and the subprocess runner.
 */
export { canonicalJson } from './canonical-json.js';
export {
  type CodeDigestOptions,
  type CodeDigestResult,
  computeCodeDigest,
  type DigestedFile,
} from './code-digest.js';
export type { ContentReceiver } from './content-channel.js';
export { type Executor, toExecutor } from './executor.js';
export { EXECUTOR_ENVIRONMENT_ALLOWLIST, scrubEnvironment } from './executor-environment.js';
export {
  CAPABILITY_PATTERN,
  EXECUTOR_NAME_PATTERN,
  type ExecutorLimits,
  type ExecutorManifest,
  type ExecutorSignature,
  executorManifestSchema,
  MANIFEST_FILE,
  type ManifestParseResult,
  parseExecutorManifest,
  unsignedManifest,
} from './executor-manifest.js';
export {
  type ExecutorOutcome,
  type ParseExecutorOutputResult,
  parseExecutorOutput,
} from './executor-outcome.js';
export {
  LOCAL_KEY_NAME,
  type LoadOrCreateSigningKeyResult,
  loadOrCreateSigningKey,
  loadSigningKey,
  loadTrustedKeys,
  type SaveSigningKeyOptions,
  saveSigningKey,
} from './key-store.js';
export {
  type DiscardedExecutor,
  type LoadCatalogOptions,
  type LoadCatalogResult,
  loadCatalog,
} from './load-catalog.js';
export { type ReadManifestResult, readManifest } from './read-manifest.js';
export { resolveEntry } from './resolve-entry.js';
export {
  DEFAULT_EXECUTOR_MAX_OUTPUT_BYTES,
  DEFAULT_EXECUTOR_TIMEOUT_MS,
  type ExecutorRun,
  type RunExecutorOptions,
  runExecutor,
  runExecutorDetailed,
} from './run-executor.js';
export {
  type EnsureShippedExecutorsOptions,
  type EnsureShippedExecutorsResult,
  ensureShippedExecutors,
  SHIPPED_EXECUTOR_NAMES,
  type ShippedExecutorReport,
  type ShippedExecutorStatus,
  shippedExecutorsDir,
} from './shipped-executors.js';
export { type SignExecutorResult, signExecutor } from './sign-executor.js';
export {
  generateSigningKey,
  keyIdOf,
  type SigningKey,
  type TrustedKey,
  toTrustedKey,
  trustedKeyFromPem,
} from './signing-key.js';
export { SIGNING_DOMAIN, signingPayload } from './signing-payload.js';
export { STAGED_CODE_FOLDER, type StageExecutorResult, stageExecutor } from './stage-executor.js';
export { type VerifyExecutorResult, verifyExecutor } from './verify-executor.js';
export {
  defaultExecutorsDir,
  defaultKeyDir,
  type EnvironmentVariables,
} from './xdg-dirs.js';
