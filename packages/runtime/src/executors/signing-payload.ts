import { canonicalJson } from './canonical-json.js';
import { type ExecutorManifest, unsignedManifest } from './executor-manifest.js';

/** Domain separation prefix, so an executor signature can never be replayed as a signature of anything else. */
export const SIGNING_DOMAIN = 'agent-scratchpad executor manifest v1\n';

/**
 * The exact bytes an executor signature covers: the domain prefix, then the canonical JSON of the manifest
 * without its signature block, the code digest and the key id.
 */
export function signingPayload(manifest: ExecutorManifest, codeDigest: string, keyId: string): Buffer {
  const body = canonicalJson({
    manifest: unsignedManifest(manifest),
    code_digest: codeDigest,
    key_id: keyId,
  });
  return Buffer.from(SIGNING_DOMAIN + body, 'utf8');
}
