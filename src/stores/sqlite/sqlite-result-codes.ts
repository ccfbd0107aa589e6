/**
 * SQLite's result code names (https://sqlite.org/rescode.html): each primary code, and for each the suffixes of
 * its extended codes in order (the extended code `primary | (k << 8)` is the k-th suffix). The bindings report
 * a failure's code as a number (`errcode`); the store's errors are keyed by name (`SQLITE_BUSY`,
 * `SQLITE_IOERR_WRITE`, …).
 */
const CODES: ReadonlyArray<readonly [number, string, readonly string[]]> = [
  [1, 'ERROR', ['MISSING_COLLSEQ', 'RETRY', 'SNAPSHOT']],
  [2, 'INTERNAL', []],
  [3, 'PERM', []],
  [4, 'ABORT', ['ROLLBACK']],
  [5, 'BUSY', ['RECOVERY', 'SNAPSHOT', 'TIMEOUT']],
  [6, 'LOCKED', ['SHAREDCACHE', 'VTAB']],
  [7, 'NOMEM', []],
  [8, 'READONLY', ['RECOVERY', 'CANTLOCK', 'ROLLBACK', 'DBMOVED', 'CANTINIT', 'DIRECTORY']],
  [9, 'INTERRUPT', []],
  [
    10,
    'IOERR',
    [
      'READ',
      'SHORT_READ',
      'WRITE',
      'FSYNC',
      'DIR_FSYNC',
      'TRUNCATE',
      'FSTAT',
      'UNLOCK',
      'RDLOCK',
      'DELETE',
      'BLOCKED',
      'NOMEM',
      'ACCESS',
      'CHECKRESERVEDLOCK',
      'LOCK',
      'CLOSE',
      'DIR_CLOSE',
      'SHMOPEN',
      'SHMSIZE',
      'SHMLOCK',
      'SHMMAP',
      'SEEK',
      'DELETE_NOENT',
      'MMAP',
      'GETTEMPPATH',
      'CONVPATH',
      'VNODE',
      'AUTH',
      'BEGIN_ATOMIC',
      'COMMIT_ATOMIC',
      'ROLLBACK_ATOMIC',
      'DATA',
      'CORRUPTFS',
    ],
  ],
  [11, 'CORRUPT', ['VTAB', 'SEQUENCE', 'INDEX']],
  [12, 'NOTFOUND', []],
  [13, 'FULL', []],
  [14, 'CANTOPEN', ['NOTEMPDIR', 'ISDIR', 'FULLPATH', 'CONVPATH', 'DIRTYWAL', 'SYMLINK']],
  [15, 'PROTOCOL', []],
  [16, 'EMPTY', []],
  [17, 'SCHEMA', []],
  [18, 'TOOBIG', []],
  [
    19,
    'CONSTRAINT',
    [
      'CHECK',
      'COMMITHOOK',
      'FOREIGNKEY',
      'FUNCTION',
      'NOTNULL',
      'PRIMARYKEY',
      'TRIGGER',
      'UNIQUE',
      'VTAB',
      'ROWID',
      'PINNED',
      'DATATYPE',
    ],
  ],
  [20, 'MISMATCH', []],
  [21, 'MISUSE', []],
  [22, 'NOLFS', []],
  [23, 'AUTH', ['USER']],
  [24, 'FORMAT', []],
  [25, 'RANGE', []],
  [26, 'NOTADB', []],
  [27, 'NOTICE', ['RECOVER_WAL', 'RECOVER_ROLLBACK']],
  [28, 'WARNING', ['AUTOINDEX']],
];

const NAMES = new Map<number, string>();
for (const [primary, name, extended] of CODES) {
  NAMES.set(primary, `SQLITE_${name}`);
  extended.forEach((suffix, index) => {
    NAMES.set(primary | ((index + 1) << 8), `SQLITE_${name}_${suffix}`);
  });
}

/**
 * The name of a SQLite result code (`5` → `SQLITE_BUSY`, `261` → `SQLITE_BUSY_RECOVERY`); an extended code this
 * table does not know is named by its primary code, an unknown primary code `SQLITE_UNKNOWN_<n>`.
 */
export function resultCodeName(code: number): string {
  return NAMES.get(code) ?? NAMES.get(code & 0xff) ?? `SQLITE_UNKNOWN_${code}`;
}
