/** `agent-scratchpad/memory`: the in-memory store, the reference driver (nothing persisted). */

/** Creates the in-memory store. */
export { createMemoryDriver, MemoryDriver, type MemoryDriverConfig } from './memory-driver.js';
