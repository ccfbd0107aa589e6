import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two test files at once even on two cores (Vitest's default there is one): most of the suite waits for
    // subprocesses, PostgreSQL, the sandbox and the browser. 465 s against 304 s on the 2-core CI machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
