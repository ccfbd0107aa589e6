import type { Executor } from '../executors/executor.js';
import type { DesiredSignature } from '../mnestome/desired-signature.js';
import type { Passage } from '../mnestome/mnestome.js';
import { MNESTOME } from '../mnestome/mnestome-constants.js';
import { satisfiesSignature } from './satisfies-signature.js';

/** What {@link findChain} searches. */
export interface ChainSearch {
  /** The executor whose output the model wanted to pass on. */
  source: string;
  signature: DesiredSignature;
  /** Real passages (the mnestome's graph). */
  passages: readonly Passage[];
  /** The verified catalog: every executor of a chain must be in it. */
  catalog: readonly Executor[];
  /** Longest chain in passages (default {@link MNESTOME}.composeMaxHops). */
  maxHops?: number;
}

/**
 * The composer's breadth-first search (seed 002, ch. 12): from `source` along real passages, heaviest first,
 * through signed executors only, to the nearest executor that satisfies the desired signature. Returns the chain
 * `[source, …, target]` (at least one passage long), or `undefined` when there is none within `maxHops`.
 */
export function findChain(search: ChainSearch): string[] | undefined {
  const signed = new Map(search.catalog.map((executor) => [executor.name, executor]));
  if (!signed.has(search.source)) return undefined;
  const next = new Map<string, Passage[]>();
  for (const passage of search.passages) {
    if (!passage.dst_exists) continue;
    const list = next.get(passage.src) ?? [];
    list.push(passage);
    next.set(passage.src, list);
  }
  for (const list of next.values())
    list.sort((a, b) => b.weight - a.weight || (a.dst < b.dst ? -1 : a.dst > b.dst ? 1 : 0));
  const maxHops = search.maxHops ?? MNESTOME.composeMaxHops;
  const seen = new Set([search.source]);
  let frontier: string[][] = [[search.source]];
  for (let hops = 1; hops <= maxHops && frontier.length > 0; hops += 1) {
    const following: string[][] = [];
    for (const path of frontier) {
      for (const passage of next.get(path.at(-1) as string) ?? []) {
        const executor = signed.get(passage.dst);
        if (!executor || seen.has(passage.dst)) continue;
        seen.add(passage.dst);
        const chain = [...path, passage.dst];
        if (satisfiesSignature(executor, search.signature)) return chain;
        following.push(chain);
      }
    }
    frontier = following;
  }
  return undefined;
}
