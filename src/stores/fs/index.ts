export { createFsDriver, FsDriver, type FsDriverConfig } from './fs-driver.js';
export type { SessionLockOptions } from './session-lock.js';
