import { accessSync, constants, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { ScratchpadError } from '../../core/errors.js';
import { tempName } from './atomic-file.js';
import { errorCode, storeError } from './fs-errors.js';
import type { FsLayout } from './fs-layout.js';

/** Identifies the on-disk layout in `ROOT/.scratchpad/layout.json`. */
const LAYOUT_FORMAT = 'agent-scratchpad-fs';
/** Version of the on-disk layout this driver reads and writes. */
const LAYOUT_VERSION = 1;

/**
 * Creates the root and its bookkeeping directories if missing and checks that the root is a writable directory
 * holding an fs store this driver understands. Synchronous: it runs once, when the driver is created, so a bad
 * `fs:` path fails right away with `STORE_UNAVAILABLE` naming the path and what to do.
 */
export function prepareRoot(layout: FsLayout): void {
  const root = layout.root;
  try {
    mkdirSync(root, { recursive: true });
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EEXIST' || code === 'ENOTDIR') throw notDirectory(root, error);
    throw storeError(error, root, 'create the store directory');
  }
  if (!statSync(root).isDirectory()) throw notDirectory(root);
  try {
    accessSync(root, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new ScratchpadError(
      'STORE_UNAVAILABLE',
      `The fs store directory ${root} is not writable by this user.`,
      {
        hint: `Make it readable and writable (chmod u+rwx ${root}), or point fs: at another directory.`,
        details: { path: root, code: errorCode(error) },
        cause: error,
      },
    );
  }
  for (const directory of [
    layout.idsDirectory,
    layout.stagingDirectory,
    layout.trashDirectory,
    layout.storeTempDirectory,
  ]) {
    try {
      mkdirSync(directory, { recursive: true });
    } catch (error) {
      throw storeError(error, directory, 'create');
    }
  }
  checkLayoutFile(layout);
}

function checkLayoutFile(layout: FsLayout): void {
  const path = layout.layoutFile;
  let text: string | undefined;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw storeError(error, path, 'read');
  }
  if (text === undefined) {
    const temp = layout.storeTempFile(tempName());
    try {
      writeFileSync(temp, `${JSON.stringify({ format: LAYOUT_FORMAT, version: LAYOUT_VERSION })}\n`, {
        flag: 'wx',
      });
      renameSync(temp, path);
    } catch (error) {
      throw storeError(error, path, 'write');
    }
    return;
  }
  let parsed: { format?: unknown; version?: unknown } | undefined;
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch (error) {
    throw new ScratchpadError('STORE_CORRUPT', `${path} is not valid JSON.`, {
      hint: `Restore it, or write {"format":"${LAYOUT_FORMAT}","version":${LAYOUT_VERSION}} if this directory is an fs store.`,
      details: { path },
      cause: error,
    });
  }
  if (parsed?.format !== LAYOUT_FORMAT || parsed.version !== LAYOUT_VERSION) {
    throw new ScratchpadError(
      'STORE_UNAVAILABLE',
      `${path} describes ${JSON.stringify(parsed?.format)} version ${JSON.stringify(parsed?.version)}; this driver reads ${LAYOUT_FORMAT} version ${LAYOUT_VERSION}.`,
      {
        hint: 'Open it with the llm-scratchpad version that wrote it, or point fs: at another directory.',
        details: { path },
      },
    );
  }
}

function notDirectory(root: string, cause?: unknown): ScratchpadError {
  return new ScratchpadError('STORE_UNAVAILABLE', `The fs store path ${root} is not a directory.`, {
    hint: 'Point fs: at a directory (it is created if missing), not at a file or below one.',
    details: { path: root },
    ...(cause === undefined ? {} : { cause }),
  });
}
