/**
 * Every number of the mnestome, in one place (seed 002, ch. 12). A passage `src → dst` is born with the bootstrap
 * weight; each later use reinforces it towards 1; `apply_ager` decays it towards 0 with a half-life, demotes real
 * passages that fell too low, and purges proto-mnests nobody asked for again.
 *
 * With these values a passage used three times in a row weighs 0.20 → 0.28 → 0.352: the third use makes a
 * proto-mnest "recurring" for `synt_suggest` (uses ≥ 3, weight ≥ 0.30). Unused, a passage halves every 30 days;
 * from the bootstrap weight it is demoted after about 2 months.
 */
export const MNESTOME = {
  /** Weight of a passage seen for the first time. */
  bootstrapWeight: 0.2,
  /** Each use moves the weight this share of the way to 1: `weight += rate × (1 − weight)`. */
  reinforcementRate: 0.1,
  /** Days after which an unused passage's weight halves (`apply_ager` decay). */
  decayHalfLifeDays: 30,
  /** A real passage whose weight falls below this is demoted to dormant: compose no longer walks it. */
  demoteBelowWeight: 0.05,
  /** A proto-mnest (its executor does not exist) unused for this many days is purged. */
  protoStaleAfterDays: 30,
  /** `synt_suggest` considers proto-mnests used at least this often… */
  recurringMinUses: 3,
  /** …and at least this heavy. */
  recurringMinWeight: 0.3,
  /** Longest chain compose looks for, in passages. */
  composeMaxHops: 3,
  /** Longest executor name stored (names come from a model: anything longer is not recorded). */
  maxNameLength: 64,
} as const;

/** Milliseconds in a day. */
export const DAY_MS = 86_400_000;
