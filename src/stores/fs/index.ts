/** `llm-scratchpad/fs`: the store as a plain directory of `cat`-able files, one folder per session. */
// biome-ignore-all assist/source/organizeImports: one export per statement, each with its TSDoc, in reading order

/** Opens the directory store (created if missing). */
export { createFsDriver, FsDriver, type FsDriverConfig } from './fs-driver.js';
/** Tuning of the cross-process session lock. */
export type { SessionLockOptions } from './session-lock.js';
