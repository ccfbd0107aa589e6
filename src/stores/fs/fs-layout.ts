import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ScratchpadError } from '../../core/errors.js';
import { isValidName, NAME_RULE } from '../../core/names.js';

/** Name of the hidden directories the driver keeps its bookkeeping in (at the root and in every session). */
const HIDDEN = '.scratchpad';

const HEX_ID = /^[0-9a-f]{24}$/;
const ENTRY_ID = /^[0-9a-f]{16,64}$/;
const CONTENT_ID = /^([0-9a-f]{24})-([0-9a-f]{24})$/;
const TEMP_NAME = /^[0-9a-z-]{1,80}$/;
// Windows maps these to devices in every directory and drops trailing dots and spaces from file names.
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/** The two parts of a content id: the content file and the (immutable) chunk index that describes it. */
export interface ContentIdParts {
  fileId: string;
  indexId: string;
}

/**
 * Every path the fs driver touches, built in one place. Each segment that comes from a caller (session id, entry
 * name, entry id, content id, staging id) is checked against its rule, and every built path is checked to stay
 * under the root, so nothing a caller passes (`..`, `/`, NUL, an absolute path) can reach outside it, even when
 * the service's own validation is bypassed.
 */
export class FsLayout {
  /** Absolute, normalized root directory. */
  readonly root: string;

  constructor(root: string) {
    if (typeof root !== 'string' || root.length === 0 || root.includes('\u0000')) {
      throw new ScratchpadError('STORE_UNAVAILABLE', `Invalid fs store root ${JSON.stringify(root)}.`, {
        hint: 'Give the directory to keep the scratchpad in, e.g. fs:./.scratchpad-store.',
      });
    }
    this.root = resolve(root);
  }

  /** `ROOT/.scratchpad`: store-wide bookkeeping. */
  get storeDirectory(): string {
    return this.#inside(join(this.root, HIDDEN));
  }
  /** `ROOT/.scratchpad/layout.json`: the on-disk format version. */
  get layoutFile(): string {
    return this.#inside(join(this.storeDirectory, 'layout.json'));
  }
  /** `ROOT/.scratchpad/ids`: one small file per entry id, holding `SESSION/NAME`. */
  get idsDirectory(): string {
    return this.#inside(join(this.storeDirectory, 'ids'));
  }
  /** `ROOT/.scratchpad/staging`: content being written, invisible until a commit renames it. */
  get stagingDirectory(): string {
    return this.#inside(join(this.storeDirectory, 'staging'));
  }
  /** `ROOT/.scratchpad/trash`: deleted sessions on their way out. */
  get trashDirectory(): string {
    return this.#inside(join(this.storeDirectory, 'trash'));
  }
  /** `ROOT/.scratchpad/tmp`: temporary files of store-wide atomic writes. */
  get storeTempDirectory(): string {
    return this.#inside(join(this.storeDirectory, 'tmp'));
  }

  idFile(id: string): string {
    if (!ENTRY_ID.test(id)) throw invalid('entry id', id, '16 to 64 lowercase hex characters');
    return this.#inside(join(this.idsDirectory, id));
  }

  stagingFile(stagingId: string): string {
    if (!HEX_ID.test(stagingId)) throw invalid('staging id', stagingId, '24 lowercase hex characters');
    return this.#inside(join(this.stagingDirectory, stagingId));
  }

  trashEntry(token: string): string {
    return this.#inside(join(this.trashDirectory, checkTemp(token)));
  }

  storeTempFile(token: string): string {
    return this.#inside(join(this.storeTempDirectory, checkTemp(token)));
  }

  /** `ROOT/SESSION`. */
  sessionDirectory(session: string): string {
    return this.#inside(join(this.root, checkName(session, 'session id')));
  }
  /** `ROOT/SESSION/.scratchpad`. */
  sessionHidden(session: string): string {
    return this.#inside(join(this.sessionDirectory(session), HIDDEN));
  }
  /** `ROOT/SESSION/.scratchpad/session.json`: when the session was created. */
  sessionFile(session: string): string {
    return this.#inside(join(this.sessionHidden(session), 'session.json'));
  }
  /** `ROOT/SESSION/.scratchpad/lock`: serializes the session's commits and deletes across processes. */
  lockFile(session: string): string {
    return this.#inside(join(this.sessionHidden(session), 'lock'));
  }
  /** `ROOT/SESSION/.scratchpad/entries`: one `NAME.json` record per entry. */
  entriesDirectory(session: string): string {
    return this.#inside(join(this.sessionHidden(session), 'entries'));
  }
  /** `ROOT/SESSION/.scratchpad/content`: content files and chunk indexes, named by content id. */
  contentDirectory(session: string): string {
    return this.#inside(join(this.sessionHidden(session), 'content'));
  }
  /** `ROOT/SESSION/.scratchpad/tmp`: temporary files of the session's atomic writes. */
  sessionTempDirectory(session: string): string {
    return this.#inside(join(this.sessionHidden(session), 'tmp'));
  }
  sessionTempFile(session: string, token: string): string {
    return this.#inside(join(this.sessionTempDirectory(session), checkTemp(token)));
  }

  /** `ROOT/SESSION/NAME`: the entry's content exactly as written, for `cat`. */
  entryFile(session: string, name: string): string {
    return this.#inside(join(this.sessionDirectory(session), checkName(name, 'name')));
  }
  /** `ROOT/SESSION/.scratchpad/entries/NAME.json`: the entry's record (the commit point). */
  recordFile(session: string, name: string): string {
    return this.#inside(join(this.entriesDirectory(session), `${checkName(name, 'name')}.json`));
  }
  /** `ROOT/SESSION/.scratchpad/content/FILEID`: the content bytes (the same inode as `ROOT/SESSION/NAME`). */
  contentFile(session: string, fileId: string): string {
    if (!HEX_ID.test(fileId)) throw invalid('content file id', fileId, '24 lowercase hex characters');
    return this.#inside(join(this.contentDirectory(session), fileId));
  }
  /** `ROOT/SESSION/.scratchpad/content/FILEID-INDEXID.idx`: the chunk index of one content id. */
  indexFile(session: string, contentId: string): string {
    splitContentId(contentId);
    return this.#inside(join(this.contentDirectory(session), `${contentId}.idx`));
  }

  /** Throws unless `path` resolves to the root or below it (the last line of defence). */
  #inside(path: string): string {
    const resolved = resolve(path);
    const rest = relative(this.root, resolved);
    if (rest === '' || (rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest))) return resolved;
    throw new ScratchpadError(
      'INVALID_NAME',
      `Refusing a path outside the store root: ${JSON.stringify(path)}.`,
      {
        hint: `Session ids and names must follow the rule: ${NAME_RULE}.`,
        details: { root: this.root },
      },
    );
  }
}

/** `FILEID-INDEXID` → its parts; throws `STORE_CORRUPT` for anything else (a content id never comes from a user). */
export function splitContentId(contentId: string): ContentIdParts {
  const match = typeof contentId === 'string' ? CONTENT_ID.exec(contentId) : null;
  if (!match) {
    throw new ScratchpadError(
      'STORE_CORRUPT',
      `Invalid content id ${JSON.stringify(contentId)} in an fs store record.`,
      {
        hint: 'Records come from this driver; a content id must be FILEID-INDEXID in hex. Restore the record or delete the entry.',
      },
    );
  }
  return { fileId: match[1] as string, indexId: match[2] as string };
}

/** True when `value` can be a session id or entry name on this platform. */
export function isStorableName(value: unknown): value is string {
  if (!isValidName(value)) return false;
  if (process.platform === 'win32' && (WINDOWS_RESERVED.test(value) || /[. ]$/.test(value))) return false;
  return true;
}

function checkName(value: string, what: string): string {
  if (isStorableName(value)) return value;
  const platform =
    process.platform === 'win32'
      ? ' (and, on Windows, not a device name like CON or a name ending in ".")'
      : '';
  throw invalid(what, value, `${NAME_RULE}${platform}`);
}

function checkTemp(token: string): string {
  if (!TEMP_NAME.test(token)) throw invalid('temporary file name', token, '[0-9a-z-]');
  return token;
}

function invalid(what: string, value: unknown, rule: string): ScratchpadError {
  const shown =
    typeof value === 'string'
      ? JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)
      : String(value);
  return new ScratchpadError('INVALID_NAME', `Invalid ${what} ${shown} for the fs store: use ${rule}.`, {
    hint: 'Pick a name like "plan", "findings-1" or "fs_read_3".',
    details: { [what]: value, rule },
  });
}
