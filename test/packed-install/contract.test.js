// Runs inside a fresh project that installed the packed tarball with `--omit=dev` (scripts/packed-install.sh).
import { runStoreContract } from 'llm-scratchpad/test';
import { afterAll, expect } from 'vitest';
import { ForwardingDriver } from './forwarding-driver.js';

const drivers = [];

runStoreContract({
  name: 'third-party forwarding driver',
  createDriver: () => {
    const driver = new ForwardingDriver();
    drivers.push(driver);
    return driver;
  },
});

afterAll(() => {
  const calls = new Set(drivers.flatMap((driver) => driver.calls));
  expect(calls).toContain('doStage');
  expect(calls).toContain('doCommit');
  expect(calls).toContain('doReadChunks');
});
