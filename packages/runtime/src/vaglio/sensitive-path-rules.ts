/** One path segment of a rule: a test for literal names, and sample names a shell glob is tried against. */
export interface SegmentPattern {
  test: RegExp;
  /** Names this segment stands for, used to decide whether a glob (`/etc/pass*`) could expand into it. */
  examples: readonly string[];
  /** Matches any single name (the `*` of `~/.config/*\/credentials.env`). */
  any?: boolean;
}

/** A protected location (seed 002, ch. 8: "if even just mentioned in a tool argument, the action is denied"). */
export interface SensitivePathRule {
  id: string;
  /** How the rule is named in verdicts and logs (a constant: never the user's value). */
  label: string;
  /** True: the segments must start at the filesystem root; false: anywhere in a path (any user's home, a chroot). */
  anchored: boolean;
  segments: readonly SegmentPattern[];
}

/** Backup and drop-in spellings of a protected file: `passwd-`, `shadow~`, `passwd.bak`, `sudoers.d`. */
const BACKUP_SUFFIX = '([-~+]|\\.[a-z0-9]+)?';

function literal(name: string): SegmentPattern {
  return { test: new RegExp(`^${name.replace(/[.]/g, '\\.')}$`), examples: [name] };
}

/** The seed's protected paths (plus the backups and siblings noted), matched case-insensitively. */
export const SENSITIVE_PATH_RULES: readonly SensitivePathRule[] = [
  { id: 'ssh', label: '~/.ssh', anchored: false, segments: [literal('.ssh')] },
  {
    id: 'etc-accounts',
    label: '/etc/passwd|shadow|sudoers',
    anchored: false,
    segments: [
      literal('etc'),
      {
        test: new RegExp(`^(passwd|shadow|gshadow|sudoers)${BACKUP_SUFFIX}$`),
        examples: ['passwd', 'shadow', 'gshadow', 'sudoers', 'sudoers.d'],
      },
    ],
  },
  { id: 'root-home', label: '/root', anchored: true, segments: [literal('root')] },
  { id: 'boot', label: '/boot', anchored: true, segments: [literal('boot')] },
  { id: 'sys', label: '/sys', anchored: true, segments: [literal('sys')] },
  { id: 'proc', label: '/proc', anchored: true, segments: [literal('proc')] },
  {
    id: 'block-devices',
    label: '/dev/sd*|nvme*',
    anchored: true,
    segments: [
      literal('dev'),
      {
        test: /^(sd|nvme|hd[a-z]|vd[a-z]|xvd|mmcblk|disk$|mapper$)/,
        examples: [
          'sda',
          'sdb',
          'sda1',
          'nvme0n1',
          'nvme0n1p1',
          'hda',
          'vda',
          'xvda',
          'mmcblk0',
          'disk',
          'mapper',
        ],
      },
    ],
  },
  {
    id: 'aws-credentials',
    label: '~/.aws/credentials',
    anchored: false,
    segments: [
      literal('.aws'),
      { test: new RegExp(`^credentials${BACKUP_SUFFIX}$`), examples: ['credentials'] },
    ],
  },
  {
    id: 'config-credentials',
    label: '~/.config/*/credentials.env',
    anchored: false,
    segments: [literal('.config'), { test: /^[^/]+$/, examples: [], any: true }, literal('credentials.env')],
  },
  { id: 'gnupg', label: '~/.gnupg', anchored: false, segments: [literal('.gnupg')] },
];

const GLOB_CHARACTERS = /[*?[]/;

/** True when a path segment contains shell glob characters. */
export function isGlob(segment: string): boolean {
  return GLOB_CHARACTERS.test(segment);
}

/**
 * A bash glob segment as a regular expression. As in bash without `dotglob`, a glob that does not start with a
 * literal `.` does not match names starting with `.` (`~/*` does not expand to `~/.ssh`).
 */
function globSegmentToRegExp(glob: string): RegExp {
  let source = '';
  for (let index = 0; index < glob.length; index += 1) {
    const character = glob[index]!;
    if (character === '*') source += '[^/]*';
    else if (character === '?') source += '[^/]';
    else if (character === '[') {
      const close = glob.indexOf(']', index + 2);
      if (close === -1) {
        source += '\\[';
        continue;
      }
      let body = glob.slice(index + 1, close);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      source += `[${body.replace(/\\/g, '\\\\')}]`;
      index = close;
    } else source += character.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  const hidesDotfiles = !glob.startsWith('.');
  return new RegExp(`^${hidesDotfiles ? '(?!\\.)' : ''}${source}$`, 'i');
}

function segmentMatches(segment: string, pattern: SegmentPattern): boolean {
  if (pattern.any) return segment !== '' && segment !== '..' && segment !== '.';
  if (!isGlob(segment)) return pattern.test.test(segment);
  let glob: RegExp;
  try {
    glob = globSegmentToRegExp(segment);
  } catch {
    return true;
  }
  return pattern.examples.some((example) => glob.test(example));
}

/** Whether `segments[index…]` starts with the rule's segments; `**` stands for any number of non-hidden names. */
function matchesFrom(
  segments: readonly string[],
  index: number,
  rule: SensitivePathRule,
  ruleIndex: number,
): boolean {
  if (ruleIndex === rule.segments.length) return true;
  const segment = segments[index];
  if (segment === undefined) return false;
  const pattern = rule.segments[ruleIndex]!;
  if (segment === '**') {
    if (matchesFrom(segments, index + 1, rule, ruleIndex)) return true;
    if (!segmentMatches('*', pattern)) return false;
    return (
      matchesFrom(segments, index, rule, ruleIndex + 1) ||
      matchesFrom(segments, index + 1, rule, ruleIndex + 1)
    );
  }
  return segmentMatches(segment, pattern) && matchesFrom(segments, index + 1, rule, ruleIndex + 1);
}

/**
 * The first rule that `path` falls under, or `undefined`. `path` is normalized already (no `..`, no `//`) and is
 * compared lowercase (case tricks such as `/ETC/Shadow` count). Glob segments match when they could expand
 * into the protected name. Relative paths are checked against unanchored rules only.
 */
export function matchSensitivePath(path: string): SensitivePathRule | undefined {
  const absolute = path.startsWith('/');
  const segments = path
    .toLowerCase()
    .split('/')
    .filter((segment) => segment !== '');
  for (const rule of SENSITIVE_PATH_RULES) {
    if (rule.anchored) {
      if (absolute && matchesFrom(segments, 0, rule, 0)) return rule;
      continue;
    }
    for (let start = 0; start < segments.length; start += 1) {
      if (matchesFrom(segments, start, rule, 0)) return rule;
    }
  }
  return undefined;
}
