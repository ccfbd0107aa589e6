/**
 * The agent runtime of seed 002: model providers and their config, tiers, signed executors, the sandbox around
 * them, the pre-filter, the vaglio, the planner loop and its modes, the mnestome and compose, and the scheduler.
 * Import from `agent-scratchpad/runtime`.
 */
export * from './compose/index.js';
export * from './config/index.js';
export * from './executors/index.js';
export * from './mnestome/index.js';
export * from './model/index.js';
export * from './modes/index.js';
export * from './planner/index.js';
export * from './prefilter/index.js';
export * from './providers/index.js';
export * from './sandbox/index.js';
export * from './scheduler/index.js';
export * from './summarizer/index.js';
export * from './tiers/index.js';
export * from './vaglio/index.js';
