import { z } from 'zod';
import type { JsonObject } from 'llm-scratchpad';

/** File name of an executor's manifest inside its folder. */
export const MANIFEST_FILE = 'manifest.json';

/** Rule for executor names: snake_case, as tool names shown to a model (`fs_read`, `web_fetch`). */
export const EXECUTOR_NAME_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
/** A capability: `domain:action` (`fs:read`, `code:exec`, `net:http`). */
export const CAPABILITY_PATTERN = /^[a-z][a-z0-9_-]*(:[a-z0-9_*-]+)+$/;

/** The signature block a manifest carries once signed (see `signExecutor`). */
export interface ExecutorSignature {
  /** Always `ed25519`. */
  algorithm: 'ed25519';
  /** Id of the signing key: the first 16 hex digits of the SHA-256 of its SPKI DER encoding. */
  key_id: string;
  /** `sha256:<hex>` digest of every file of the executor folder but the manifest (see `computeCodeDigest`). */
  code_digest: string;
  /** Base64 ed25519 signature over the manifest (without `signature`), the code digest and the key id. */
  value: string;
}

/** Optional per-executor limits; the runner's options override them. */
export interface ExecutorLimits {
  /** Wall-clock budget of one run, in milliseconds. */
  timeout_ms?: number;
  /** Cap on the bytes the executor may print on stdout. */
  max_output_bytes?: number;
}

/**
 * `manifest.json`: what an executor is, what it may touch, the JSON Schema of its arguments (sent to the model
 * as is) and how to start it.
 */
export interface ExecutorManifest {
  /** snake_case name, unique in a catalog; the tool name the model calls. */
  name: string;
  /** Free-form version; shipped executors use it to decide when an installed copy is outdated. */
  version?: string;
  /** What the executor does, written for the model (it goes into the tool definition). */
  description: string;
  /** Words a user might say when they need this executor; pre-filter matches on them count double. */
  affinity: string[];
  /** What the executor may do, as `domain:action` (`fs:read`, `fs:write`, `net:http`, `code:exec`). */
  capabilities: string[];
  /** JSON Schema (`type: "object"`) of the arguments, received as one JSON object on stdin. */
  args: JsonObject;
  /**
   * The command line that starts it. `node` as the first word means the Node binary running Scratchpad; words
   * that start with `./` are resolved inside the executor folder.
   */
  entry: string[];
  limits?: ExecutorLimits;
  signature?: ExecutorSignature;
}

const jsonObject = z.record(z.string(), z.json()) as unknown as z.ZodType<JsonObject>;

/** zod schema of a manifest; unknown fields are rejected so a typo (`afinity`) is not silently ignored. */
export const executorManifestSchema: z.ZodType<ExecutorManifest> = z.strictObject({
  name: z.string().regex(EXECUTOR_NAME_PATTERN, 'must be snake_case: [a-z][a-z0-9_]{0,63}'),
  version: z.string().min(1).max(64).optional(),
  description: z.string().min(1).max(8000),
  affinity: z.array(z.string().min(1).max(64)).max(200),
  capabilities: z.array(z.string().regex(CAPABILITY_PATTERN, 'must look like domain:action')).max(32),
  args: z.intersection(
    jsonObject,
    z.looseObject({ type: z.literal('object') }),
  ) as unknown as z.ZodType<JsonObject>,
  entry: z.array(z.string().min(1)).min(1).max(64),
  limits: z
    .strictObject({
      timeout_ms: z.int().positive().max(3_600_000).optional(),
      max_output_bytes: z.int().positive().optional(),
    })
    .optional(),
  signature: z
    .strictObject({
      algorithm: z.literal('ed25519'),
      key_id: z.string().regex(/^[0-9a-f]{16}$/),
      code_digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
      value: z.base64(),
    })
    .optional(),
});

/** Result of {@link parseExecutorManifest}. */
export type ManifestParseResult = { ok: true; manifest: ExecutorManifest } | { ok: false; reason: string };

/** Validates parsed JSON as a manifest and says exactly which fields are wrong. */
export function parseExecutorManifest(value: unknown): ManifestParseResult {
  const parsed = executorManifestSchema.safeParse(value);
  if (parsed.success) return { ok: true, manifest: parsed.data };
  const problems = parsed.error.issues.map(
    (issue) => `${issue.path.join('.') || 'manifest'}: ${issue.message}`,
  );
  return { ok: false, reason: `invalid manifest: ${problems.join('; ')}` };
}

/** The manifest without its signature block: the part that the signature covers. */
export function unsignedManifest(manifest: ExecutorManifest): Omit<ExecutorManifest, 'signature'> {
  const { signature: _signature, ...rest } = manifest;
  return rest;
}
