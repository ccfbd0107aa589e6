export { createMemoryDriver, MemoryDriver, type MemoryDriverConfig } from './memory-driver.js';
