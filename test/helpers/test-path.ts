import { dirname } from 'node:path';

/**
 * A minimal PATH for end-to-end runs: the folder of the Node running the tests first, then the system folders. A
 * shell step that runs `node` (inside the sandbox too) then gets the Node the native modules were built for, also
 * when CI runs the suite on a Node line other than the system's.
 */
export const TEST_PATH = [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':');
