/**
 * The agent runtime of seed 002: model providers and their config, signed executors, the sandbox around them, the
 * pre-filter, the vaglio and the planner loop. Import from `agent-scratchpad/runtime`.
 */
export * from './config/index.js';
export * from './executors/index.js';
export * from './model/index.js';
export * from './planner/index.js';
export * from './prefilter/index.js';
export * from './providers/index.js';
export * from './sandbox/index.js';
export * from './vaglio/index.js';
