import type { ExecutorOutcome } from '../executors/executor-outcome.js';
import type { RuntimeErrorCode } from '../runtime-errors.js';

/** What a sandbox tells the runner about one call, to make its observation say what happened. */
export interface SandboxCallFacts {
  /** The write roots of the call (host paths). */
  writeRoots: readonly string[];
  /** The call's private temporary folder (`TMPDIR`), as the call sees it. */
  temporaryFolder: string;
  /** Sentences about limits the call reached (from its cgroup), possibly none. */
  limitNotes: readonly string[];
  /** Largest file the call may write, in MiB. */
  fileSizeMb: number;
}

/** The code (of the error model) an outcome carries when the sandbox refused a write (`metadata.error_code`). */
export const WRITE_REFUSED: RuntimeErrorCode = 'WRITE_REFUSED';

const READ_ONLY = /read-only file system|\bEROFS\b/i;
const FILE_TOO_LARGE = /file size limit exceeded|\bSIGXFSZ\b|\bEFBIG\b/i;

/**
 * The outcome of a sandboxed call as the model should read it: a failed write because of the sandbox becomes a
 * `WRITE_REFUSED` error naming the write roots and how the user adds one; a limit the call reached is said in the
 * error (or, when the call still succeeded, in `metadata.sandbox_limits`). Anything else is returned unchanged.
 */
export function explainSandboxOutcome(outcome: ExecutorOutcome, facts: SandboxCallFacts): ExecutorOutcome {
  const notes = [...facts.limitNotes];
  if (!outcome.ok && FILE_TOO_LARGE.test(outcome.error ?? ''))
    notes.push(
      `a file reached the size limit of ${facts.fileSizeMb} MiB per file ([runtime.sandbox] file_size_mb)`,
    );
  if (outcome.ok) {
    if (notes.length === 0) return outcome;
    // First in the metadata, ahead of a long stderr.
    return { ...outcome, metadata: { sandbox_limits: notes, ...(outcome.metadata ?? {}) } };
  }
  let error = outcome.error ?? '';
  let metadata = outcome.metadata;
  if (READ_ONLY.test(error)) {
    const roots = facts.writeRoots.length > 0 ? facts.writeRoots.join(', ') : 'none';
    error =
      `${WRITE_REFUSED}: ${error}. The sandbox lets executors write only inside the write roots (${roots}), ` +
      `except the protected locations in them, and in the call's own temporary folder ${facts.temporaryFolder} ` +
      '(deleted when the call ends, so nothing kept there survives it). The refused write did not happen. The user can ' +
      'allow another folder with `--write-root PATH` on `scratchpad run` or `write_roots` in the ' +
      '[runtime.sandbox] section of config.toml.';
    metadata = { ...(metadata ?? {}), error_code: WRITE_REFUSED, write_roots: [...facts.writeRoots] };
  }
  if (notes.length > 0) error = `${error} (${notes.join('; ')})`;
  return { ...outcome, error, ...(metadata ? { metadata } : {}) };
}
