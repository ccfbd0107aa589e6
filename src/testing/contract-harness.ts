import type { Scratchpad, ScratchpadConfig } from '../service/scratchpad.js';
import type { StoreDriver } from '../stores/driver.js';

/** What a part of the store contract gets from {@link runStoreContract}: a service over a fresh driver and a clock. */
export interface ContractHarness {
  /** The service over this test's driver, with tiny chunks and the test clock. */
  open(config?: Partial<ScratchpadConfig>): Scratchpad;
  /** Declares a test (skipped when the backend's options skip it). */
  test(title: string, body: () => Promise<void>, timeout?: number): void;
  /** Moves the test clock forward. */
  tick(ms: number): void;
  now(): number;
  /** This test's driver, for the cases that call the driver spec directly. */
  driver(): StoreDriver;
  /** For persistent backends: closes this test's driver and opens the same store again (it becomes `driver()`). */
  reopen?: () => Promise<StoreDriver>;
}
