import { runStoreContract } from '../../testing/store-contract.js';
import { createMemoryDriver } from './memory-driver.js';

runStoreContract({ name: 'memory', createDriver: () => createMemoryDriver() });
