import { createRedactor, NO_REDACTION, type Redactor } from '../core/redaction/redactor.js';
import type { SecretPattern } from '../core/redaction/secret-patterns.js';

/**
 * Secret redaction of a {@link Scratchpad} (`false` turns it off everywhere). Secrets are replaced by
 * `[REDACTED:<kind>]` in what a model sees by default; in what is stored only when `store` is set, because a
 * stored redaction cannot be undone and `{{stepN.field}}` piping reads the stored bytes.
 */
export interface RedactionConfig {
  /** Redact what a model sees: tool results, read slices, search snippets, grep lines, previews (default `true`). */
  view?: boolean;
  /** Redact content before it is stored (default `false`): the original is gone for good. */
  store?: boolean;
  /** Patterns to add to the built-in ones (RE2 syntax; see {@link SecretPattern}). */
  patterns?: readonly SecretPattern[];
  /** `false` keeps only `patterns` (default `true`). */
  builtins?: boolean;
}

/** The two redactors a service uses: for what a model sees and for what is stored. */
export interface ResolvedRedaction {
  view: Redactor;
  store: Redactor;
}

/** Builds the redactors of {@link RedactionConfig} (one compiled pattern set shared by both). */
export function resolveRedaction(config: RedactionConfig | false | undefined): ResolvedRedaction {
  if (config === false) return { view: NO_REDACTION, store: NO_REDACTION };
  const view = config?.view !== false;
  const store = config?.store === true;
  if (!view && !store) return { view: NO_REDACTION, store: NO_REDACTION };
  const redactor = createRedactor({
    ...(config?.patterns ? { patterns: config.patterns } : {}),
    ...(config?.builtins === undefined ? {} : { builtins: config.builtins }),
  });
  return { view: view ? redactor : NO_REDACTION, store: store ? redactor : NO_REDACTION };
}
