import type { JsonObject } from 'llm-scratchpad';
import type { ExecutorLimits, ExecutorManifest } from './executor-manifest.js';

/** A verified executor, ready to run: its manifest fields plus where it lives and who signed it. */
export interface Executor {
  name: string;
  version: string | undefined;
  description: string;
  affinity: readonly string[];
  capabilities: readonly string[];
  /** JSON Schema of the arguments, passed to the model provider as the tool's parameters. */
  args: JsonObject;
  entry: readonly string[];
  limits: ExecutorLimits;
  /** Absolute path of the executor folder. */
  dir: string;
  /** Id of the trusted key that signed it. */
  keyId: string;
  /** `sha256:<hex>` code digest, checked at load time. */
  codeDigest: string;
  /** The signed manifest as read from disk. */
  manifest: ExecutorManifest;
}

/** Builds the runtime view of a verified manifest. */
export function toExecutor(
  manifest: ExecutorManifest,
  dir: string,
  keyId: string,
  codeDigest: string,
): Executor {
  return {
    name: manifest.name,
    version: manifest.version,
    description: manifest.description,
    affinity: manifest.affinity,
    capabilities: manifest.capabilities,
    args: manifest.args,
    entry: manifest.entry,
    limits: manifest.limits ?? {},
    dir,
    keyId,
    codeDigest,
    manifest,
  };
}
