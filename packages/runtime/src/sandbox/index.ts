/** The operating-system sandbox around every executor call (bubblewrap on Linux). */
export { type BubblewrapFeatures, bubblewrapArguments, type SandboxLayout } from './bubblewrap-arguments.js';
export {
  type BubblewrapSandboxConfig,
  createBubblewrapSandbox,
  TEMPORARY_FOLDER,
  TEMPORARY_FOLDER_BYTES,
} from './bubblewrap-sandbox.js';
export { type CallLimits, DEFAULT_CALL_LIMITS } from './call-limits.js';
export { type CreateSandboxOptions, createSandbox } from './create-sandbox.js';
export { createNoSandbox } from './no-sandbox.js';
export { pathContains } from './path-contains.js';
export {
  type BubblewrapProbe,
  DEFAULT_BUBBLEWRAP_PATH,
  INSTALL_BUBBLEWRAP,
  probeBubblewrap,
} from './probe-bubblewrap.js';
export {
  type ExistingLocations,
  existingLocations,
  machineHomes,
  PROTECTED_HOME_LOCATIONS,
  PROTECTED_SYSTEM_LOCATIONS,
  protectedLocations,
} from './protected-locations.js';
export {
  declaresNetwork,
  type Sandbox,
  type SandboxPlan,
  type SandboxRequest,
  type SandboxStatus,
} from './sandbox.js';
export {
  detectSandbox,
  SANDBOX_ENVIRONMENT_VARIABLE,
  SANDBOX_MARKER_FILE,
  SANDBOX_RUN_FOLDER,
} from './sandbox-marker.js';
export { explainSandboxOutcome, type SandboxCallFacts, WRITE_REFUSED } from './sandbox-observation.js';
export {
  BUBBLEWRAP_PATH_VARIABLE,
  defaultSandboxSettings,
  type SandboxSettings,
} from './sandbox-settings.js';
export { createUnavailableSandbox } from './unavailable-sandbox.js';
export { unixSocketFilter } from './unix-socket-filter.js';
export { resolveWriteRoots, type WriteRoots, type WriteRootsOptions } from './write-roots.js';
