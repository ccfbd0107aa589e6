import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Suites about the package as published rather than the Node it runs on: the README's code blocks, the MCP client
 * lines through `npx` of the packed tarball, the type footprint. CI runs them on its first Node line and, with
 * `SCRATCHPAD_TEST_SCOPE=node-line`, leaves them out on the other lines (about 6 minutes each on 2 cores).
 */
const PACKAGE_SUITES = [
  'test/readme-code.test.ts',
  'test/mcp-client-lines.test.ts',
  'test/type-footprint.test.ts',
];

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/**/*.test.ts', 'packages/*/src/**/*.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      ...(process.env.SCRATCHPAD_TEST_SCOPE === 'node-line' ? PACKAGE_SUITES : []),
    ],
    // Rebuilds dist/ first when src/ is newer: worker threads and the CLI's end-to-end tests run the build.
    globalSetup: ['test/setup/fresh-build.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two test files at once even on two cores (Vitest's default there is one): most of the suite waits for
    // subprocesses, PostgreSQL, the sandbox and the browser. 465 s against 304 s on the 2-core CI machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
