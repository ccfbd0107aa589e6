import type { Executor } from '../executors/executor.js';
import type { DesiredSignature } from '../mnestome/desired-signature.js';
import type { Mnestome } from '../mnestome/mnestome.js';
import { findChain } from './find-chain.js';
import { abandonedOutcome, composedOutcome, type SyntOutcome } from './synt-outcome.js';

/** What compose-only synthesis needs: the proto-mnest's sources and signature, the mnestome, the catalog. */
export interface ComposeRequest {
  /** The executors whose output the model wanted to pass on (the proto-mnest's `src`). */
  sources: readonly string[];
  signature: DesiredSignature;
  mnestome: Mnestome;
  catalog: readonly Executor[];
}

/**
 * Reactive compose-only synthesis (seed 002, ch. 12, `Synt.react` without a router): a breadth-first search over
 * the mnestome's real passages from each source for a chain of signed executors that satisfies the signature.
 * No model, no budget: milliseconds. Throws only when the mnestome cannot be read.
 */
export async function compose(request: ComposeRequest): Promise<SyntOutcome> {
  const passages = await request.mnestome.realPassages();
  for (const source of request.sources) {
    const chain = findChain({ source, signature: request.signature, passages, catalog: request.catalog });
    if (chain) return composedOutcome(chain);
  }
  return abandonedOutcome();
}
