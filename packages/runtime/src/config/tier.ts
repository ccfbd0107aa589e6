/** The three model pointers of the runtime (seed 002): fast & furious, middle & trustable, slow & wise. */
export type Tier = 'fast' | 'middle' | 'wise';

/** The tiers, from the lowest to the highest. */
export const TIERS: readonly Tier[] = ['fast', 'middle', 'wise'];
