import { posix } from 'node:path';
import type { GuardContext } from './guard-context.js';
import { normalizePosixPath, resolvePosixPath } from './posix-path.js';
import { isGlob } from './sensitive-path-rules.js';
import {
  type ParsedCommand,
  parseCommandVariants,
  type ShellSegment,
  SUBSTITUTION,
} from './shell-segments.js';

/** Identifiers of the destructive-command rules. */
export type DestructiveRuleId =
  | 'recursive-delete'
  | 'no-preserve-root'
  | 'filesystem-format'
  | 'raw-device-write'
  | 'fork-bomb'
  | 'recursive-permissions'
  | 'decode-and-execute';

/** What each rule is called in verdicts and logs (constants: never the user's value). */
export const DESTRUCTIVE_RULE_LABELS: Record<DestructiveRuleId, string> = {
  'recursive-delete': 'recursive delete of /, a system folder or the home folder',
  'no-preserve-root': 'rm --no-preserve-root',
  'filesystem-format': 'filesystem format (mkfs, mke2fs, wipefs)',
  'raw-device-write': 'raw write to a block device (dd of=/dev/…, > /dev/sd…)',
  'fork-bomb': 'fork bomb',
  'recursive-permissions': 'recursive chmod/chown of /, a system folder or the home folder',
  'decode-and-execute': 'decoded payload piped into a shell',
};

/** A destructive command found in an argument string. `detail` is for tests: never log it. */
export interface DestructiveFinding {
  rule: DestructiveRuleId;
  detail: string;
}

/** Top-level folders (and a few below `/usr`, `/var`) whose recursive removal or re-permissioning breaks a system. */
const SYSTEM_FOLDERS = new Set(
  [
    '/bin /boot /dev /etc /home /lib /lib32 /lib64 /libx32 /media /mnt /opt /proc /root /run /sbin /snap /srv /sys',
    '/usr /var /usr/bin /usr/lib /usr/lib64 /usr/local /usr/sbin /usr/share /var/lib /var/log',
  ]
    .join(' ')
    .split(' '),
);
/** Directory changes followed per command (bounded, so a hostile `cd a; cd a; …` stays linear). */
const MAX_DIRECTORY_CHANGES = 64;
/** Command names {@link inspectCommand} looks at. */
const INSPECTED_COMMANDS = /^(rm|find|mkfs(\..+)?|mke2fs|wipefs|dd|tee|shred|chmod|chown|chgrp)$/;
/** Devices that are fine to write to. */
const HARMLESS_DEVICES =
  /^\/dev\/(null|zero|full|random|urandom|stdout|stderr|stdin|tty|fd\/\d+|shm(\/.*)?|pts\/\d+)$/;
const BLOCK_DEVICE = /\/dev\/(sd|nvme|hd[a-z]|vd[a-z]|xvd|mmcblk|disk|mapper|md\d|dm-|loop|sr\d|nbd)/i;

/** Word starts only (a lookbehind), so a long run of non-space text is scanned once, not once per character. */
const NAME = '(?<=^|[\\s;&|(){}])([^\\s;&|(){}]+)';
const FORK_BOMBS = [
  new RegExp(`${NAME}\\s*\\(\\s*\\)\\s*\\{[^}]{0,200}?\\1\\s*\\|\\s*\\1`),
  /(?<=^|[\s;&|(){}])function\s+([^\s;&|(){}]+)\s*(?:\(\s*\))?\s*\{[^}]{0,200}?\1\s*\|\s*\1/,
  new RegExp(`${NAME}\\s*\\(\\s*\\)\\s*\\{[^}]{0,200}?\\1\\s*&[^}]{0,200}?\\1\\s*&`),
  /\bfork\s+while\s+fork\b/,
  /\b(?:while|for)\b[^\n]{0,80}?\bfork\s*\(/,
  /%0\s*\|\s*%0/,
];

/** How scripts spell the home folder (`process.env.HOME`, `os.homedir()`, `Path.home()`, `expanduser(~)`). */
const HOME_EXPRESSIONS =
  /process\.env\.HOME\b|\bos\.homedir\(\)|\bPath\.home\(\)|\bos\.path\.expanduser\(\s*~?\s*\)|\bos\.getenv\(\s*HOME\s*\)|\bos\.environ\[\s*HOME\s*\]/g;

/** Library calls that delete a tree: Python's `shutil.rmtree(…)`, Node's `fs.rmSync(…, {recursive: true})`. */
const RECURSIVE_DELETE_CALLS = /\b(?:rmtree|rmSync|rmdirSync)\s*\(\s*([^,)]*)/g;

const DECODERS =
  /\bbase64\s+(?:-\w*d\w*|--decode)\b|\bxxd\s+(?:-\w+\s+)*-r|\bopenssl\s+(?:enc\s+)?(?:-\w+\s+)*-d\b|\buudecode\b/i;
const SHELL_SINKS =
  /(?:^|\|)\s*(?:sudo\s+)?(?:\S*\/)?(?:sh|bash|zsh|dash|ksh|fish|eval|source|python\d?|perl|node)\b|\beval\b|\b(?:sh|bash|zsh|dash|ksh)\s+-\w*c/;

/**
 * Looks for a destructive command in `command` (seed 002, ch. 8, applied to `code:exec` executors): recursive
 * `rm` of `/`, `/*`, a system folder, the home folder or its parent (`-rf`, `-fr`, `-r -f`, `--recursive`, `/.`,
 * `//`, `/tmp/..`, `~`, `$HOME`, `${HOME}`, a target that is only an unknown variable or substitution, or targets
 * piped in through `xargs`), `--no-preserve-root`, `find … -delete` / `-exec rm` on those, `mkfs*` / `mke2fs` /
 * `wipefs`, `dd of=` or `>` / `tee` into a block device, fork bombs, recursive `chmod`/`chown`/`chgrp` on those
 * folders, and decoded payloads piped into a shell. A command word counts wherever it appears in a segment, so
 * `sudo`, `env X=1`, `bash -c '…'`, `xargs`, `nohup` and full paths (`/bin/rm`) do not hide it.
 */
export function findDestructiveCommand(
  command: string,
  context: Pick<GuardContext, 'home' | 'user' | 'cwd'>,
): DestructiveFinding | undefined {
  for (const parsed of parseCommandVariants(command, context)) {
    const found = inspect(parsed, context);
    if (found) return found;
  }
  return undefined;
}

function inspect(
  parsed: ParsedCommand,
  context: Pick<GuardContext, 'home' | 'user' | 'cwd'>,
): DestructiveFinding | undefined {
  const text = parsed.text.replace(HOME_EXPRESSIONS, context.home);
  for (const pattern of FORK_BOMBS) {
    if (pattern.test(text)) return { rule: 'fork-bomb', detail: text };
  }
  const blockRedirect = new RegExp(`>\\s*${BLOCK_DEVICE.source}`, 'i').exec(text);
  if (blockRedirect) return { rule: 'raw-device-write', detail: blockRedirect[0] };
  if (DECODERS.test(text) && SHELL_SINKS.test(text)) return { rule: 'decode-and-execute', detail: text };

  for (const match of text.matchAll(RECURSIVE_DELETE_CALLS)) {
    const target = (match[1] ?? '').trim();
    if (target !== '' && isDangerousTarget(target, context.cwd, context.home)) {
      return { rule: 'recursive-delete', detail: match[0] };
    }
  }
  let base = context.cwd;
  let changes = 0;
  let previous: ShellSegment | undefined;
  for (const segment of parsed.segments) {
    const words = segment.words;
    // Each occurrence of a command reads the words up to the next occurrence of the same command: linear in the
    // segment even when a hostile argument repeats `rm` thousands of times.
    const occurrences = new Map<string, number[]>();
    words.forEach((word, index) => {
      const name = commandName(word);
      if (!INSPECTED_COMMANDS.test(name)) return;
      const list = occurrences.get(name);
      if (list) list.push(index);
      else occurrences.set(name, [index]);
    });
    for (const [name, indexes] of occurrences) {
      for (let position = 0; position < indexes.length; position += 1) {
        const rest = words.slice(indexes[position]! + 1, indexes[position + 1] ?? words.length);
        const piped = segment.piped ? previous?.words : undefined;
        const found = inspectCommand(name, rest, base, piped, context);
        if (found) return found;
      }
    }
    if (
      (commandName(words[0]!) === 'cd' || commandName(words[0]!) === 'pushd') &&
      changes < MAX_DIRECTORY_CHANGES
    ) {
      changes += 1;
      base = words[1] === undefined ? context.home : resolvePosixPath(base, words[1]);
    }
    previous = segment;
  }
  return undefined;
}

function inspectCommand(
  name: string,
  rest: string[],
  base: string,
  pipedWords: string[] | undefined,
  context: Pick<GuardContext, 'home'>,
): DestructiveFinding | undefined {
  if (name === 'rm') {
    const { recursive, operands, flags } = readOptions(rest, /^-[a-z]*r/i, ['--recursive']);
    if (flags.includes('--no-preserve-root'))
      return { rule: 'no-preserve-root', detail: 'rm --no-preserve-root' };
    if (!recursive) return undefined;
    const targets = operands.length === 0 && pipedWords ? pipedWords : operands;
    const dangerous = targets.find((target) => isDangerousTarget(target, base, context.home));
    return dangerous === undefined ? undefined : { rule: 'recursive-delete', detail: dangerous };
  }
  if (name === 'find') {
    const starts: string[] = [];
    for (const word of rest) {
      if (word.startsWith('-') || word === '!' || word === '(') break;
      starts.push(word);
    }
    const deletes = rest.some(
      (word, index) =>
        word === '-delete' ||
        (/^-(exec|execdir|ok|okdir)$/.test(word) &&
          /^(rm|shred|unlink)$/.test(commandName(rest[index + 1] ?? ''))),
    );
    if (!deletes) return undefined;
    const dangerous = (starts.length === 0 ? ['.'] : starts).find((start) =>
      isDangerousTarget(start, base, context.home),
    );
    return dangerous === undefined ? undefined : { rule: 'recursive-delete', detail: `find ${dangerous}` };
  }
  if (/^mkfs(\..+)?$/.test(name) || name === 'mke2fs' || name === 'wipefs') {
    return { rule: 'filesystem-format', detail: name };
  }
  if (name === 'dd') {
    const output = rest.find((word) => word.startsWith('of='))?.slice(3);
    if (output !== undefined && isDeviceTarget(output, base))
      return { rule: 'raw-device-write', detail: `of=${output}` };
    return undefined;
  }
  if (name === 'tee' || name === 'shred') {
    const device = rest.find((word) => !word.startsWith('-') && isDeviceTarget(word, base));
    return device === undefined ? undefined : { rule: 'raw-device-write', detail: device };
  }
  if (name === 'chmod' || name === 'chown' || name === 'chgrp') {
    // A symbolic mode such as -rwx is an operand of chmod, not a flag.
    const isMode = name === 'chmod' ? (word: string) => /^-[rwxXst]+$/.test(word) : () => false;
    const { recursive, operands } = readOptions(rest, /^-[a-z]*R/, ['--recursive'], isMode);
    if (!recursive) return undefined;
    const targets = operands.some((word) => word.startsWith('--reference=')) ? operands : operands.slice(1);
    const dangerous = targets.find((target) => isDangerousTarget(target, base, context.home));
    return dangerous === undefined
      ? undefined
      : { rule: 'recursive-permissions', detail: `${name} ${dangerous}` };
  }
  return undefined;
}

/** The basename of a command word (`/usr/bin/rm` → `rm`), lowercased. */
function commandName(word: string): string {
  return (word.split('/').pop() ?? word).toLowerCase();
}

function readOptions(
  words: readonly string[],
  shortRecursive: RegExp,
  longRecursive: readonly string[],
  isOperand: (word: string) => boolean = () => false,
): { recursive: boolean; operands: string[]; flags: string[] } {
  let recursive = false;
  let endOfOptions = false;
  const operands: string[] = [];
  const flags: string[] = [];
  for (const word of words) {
    if (!endOfOptions && isOperand(word)) {
      operands.push(word);
    } else if (!endOfOptions && word === '--') {
      endOfOptions = true;
    } else if (!endOfOptions && word.startsWith('--')) {
      flags.push(word);
      if (longRecursive.includes(word)) recursive = true;
    } else if (!endOfOptions && /^-[a-zA-Z]+$/.test(word)) {
      flags.push(word);
      if (shortRecursive.test(word)) recursive = true;
    } else {
      operands.push(word);
    }
  }
  return { recursive, operands, flags };
}

/**
 * True for `/`, a system folder, the home folder, its parent, a glob directly inside one of them, or a target
 * made only of unknown variables and substitutions (`$DIR`, `$DIR/`, `"$(…)"/*`: empty at run time means `/`).
 */
export function isDangerousTarget(target: string, base: string, home: string): boolean {
  const known = target.replace(/\$[A-Za-z_][A-Za-z0-9_]*|\$\{[^}]*\}/g, '').replaceAll(SUBSTITUTION, '');
  if (known.replace(/[/*.]/g, '') === '' && known !== target) return true;
  if (known === '') return false;
  const resolved = resolvePosixPath(base, known).toLowerCase();
  const segments = resolved.split('/').filter((segment) => segment !== '');
  const firstGlob = segments.findIndex(isGlob);
  const fixed = `/${(firstGlob === -1 ? segments : segments.slice(0, firstGlob)).join('/')}`;
  const homeFolder = normalizePosixPath(home).toLowerCase();
  const protectedFolders = [homeFolder, posix.dirname(homeFolder)];
  return fixed === '/' || SYSTEM_FOLDERS.has(fixed) || protectedFolders.includes(fixed);
}

function isDeviceTarget(target: string, base: string): boolean {
  const resolved = resolvePosixPath(base, target);
  return resolved.startsWith('/dev/') && !HARMLESS_DEVICES.test(resolved);
}
