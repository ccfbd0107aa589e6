/** The `synt` field of a failed call's observation when compose found a chain (seed 002, ch. 12). */
export interface SyntComposed {
  strategy: 'compose';
  state: 'composed';
  chain: string[];
  first_hop: string;
  suggestion: string;
}

/** The `synt` field when no chain closes the need. */
export interface SyntAbandoned {
  state: 'abandoned';
  suggestion: string;
}

/** What reactive compose-only synthesis tells the model. */
export type SyntOutcome = SyntComposed | SyntAbandoned;

/** The seed's words when the road is closed. */
export const ABANDONED_SUGGESTION = 'There is no executor available for this need, look for another way';

/** The seed's outcome for a chain `[source, first hop, …]`: the model may invoke the first hop next. */
export function composedOutcome(chain: string[]): SyntComposed {
  const firstHop = chain[1] as string;
  return {
    strategy: 'compose',
    state: 'composed',
    chain,
    first_hop: firstHop,
    suggestion: `Retry by invoking '${firstHop}' as the next step`,
  };
}

/** The seed's outcome when there is no chain. */
export function abandonedOutcome(): SyntAbandoned {
  return { state: 'abandoned', suggestion: ABANDONED_SUGGESTION };
}
