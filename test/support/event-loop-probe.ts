/**
 * The event-loop stall probe for tests in `test/` and `src/`. It lives in `src/testing/` so that benchmarks can
 * load it from `dist/testing/event-loop-probe.js`; it is not part of the package's `./test` export.
 */
export {
  blockFor,
  type EventLoopProbeOptions,
  type EventLoopProbeResult,
  flatString,
  probeEventLoop,
  TEST_STALL_BOUND_MS,
} from '../../src/testing/event-loop-probe.js';
