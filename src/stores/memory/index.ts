/** `llm-scratchpad/memory`: the in-memory store, the reference driver (nothing persisted). */
// biome-ignore-all assist/source/organizeImports: one export per statement, each with its TSDoc, in reading order

/** Creates the in-memory store. */
export { createMemoryDriver, MemoryDriver, type MemoryDriverConfig } from './memory-driver.js';
