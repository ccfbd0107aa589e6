/**
 * How much a line says something went wrong: 4 fatal (FATAL, panic, a traceback's head, a crash), 3 error (ERROR,
 * `error:`, an exception, a failing test, a non-zero failure count or exit code, a 5xx status), 2 warning (WARN,
 * `warning:`, a 4xx status, a failed or refused attempt), 1 notice (words that report a problem: denied, not found,
 * timeout, invalid, …).
 */
export type Severity = 1 | 2 | 3 | 4;

/** Why a line stands out: its severity and the text that says so (what a grep for it can use). */
export interface LineSignal {
  severity: Severity;
  /** The words of the line that carry the signal (`ERROR`, `not ok`, `exit code 1`, `status=503`). */
  signal: string;
}

interface Rule {
  severity: Severity;
  pattern: RegExp;
  /** The capture group that holds the number a rule checks (exit codes, counts, statuses). */
  check?: (value: number) => boolean;
}

// Words that report a problem without a level (the weakest signal), as words: not inside a path, a file name or an
// identifier (`exception.py`, `invalid-name`).
const PROBLEM_WORDS =
  /(?<![\w./-])(?:denied|refused|unable to|cannot|can't|couldn't|could not|not found|no such|timed out|timeout|killed|aborting|abort|broken|unexpected|deadlock|corrupt(?:ed)?|invalid|illegal|unreachable|rejected|failed|failure|fails|exception|violation|overflow|mismatch|unresolved|not permitted|forbidden|unauthorized|no tests?)(?![\w/-]|\.\w)/i;

// Level words in capitals are levels wherever they appear (timestamps and hosts come first in most logs).
const RULES: readonly Rule[] = [
  {
    severity: 4,
    pattern:
      /\b(?:FATAL|PANIC|CRITICAL|EMERG|EMERGENCY|SEVERE)\b|Traceback \(most recent call last\)|\bException in thread\b|\bpanicked at\b|^\s*(?:fatal|panic):|Segmentation fault|core dumped|\bOutOfMemoryError\b|\b[Oo]ut of memory\b|\boom[-_]kill|\bUnhandled(?:PromiseRejection| exception| rejection)|\bUncaught\b/,
  },
  {
    severity: 3,
    pattern:
      /\b(?:ERROR|ERR|FAIL|FAILED|FAILURE|EXCEPTION|ABORTED)\b|(?:^|[^\w.'"-])(?:error|Error)(?:\[[^\]\s]{1,20}\]| TS\d+)?:|\[(?:error|Error|err|crit|alert|emerg|fatal)\]|<(?:error|failure|Error|Fault)\b|^\s*[\w.$]{0,120}(?:Error|Exception)(?=:|\s*$)|^\s*(?:not ok|Caused by:)|^E {3}|^\s*(?:✗|✕|✘)|"(?:level|severity)"\s*:\s*"(?:error|err|fatal|critical)"|\b(?:level|severity)=(?:error|err|fatal|critical)\b/,
  },
  // A failure or error count above zero: `# fail 51`, `failures="2"`, `"errors": 3`, `2 failed`, `1 error`.
  {
    severity: 3,
    pattern: /\b(?:fail|failed|failures?|failing|errors?)\b["']?\s*[:=]?\s*["']?([1-9]\d*)\b/i,
  },
  { severity: 3, pattern: /\b([1-9]\d*) (?:failed|failing|failures?|errors?)\b/i },
  // A non-zero exit code: `exit code 1`, `exited with code 2`, `exit status 1`, `rc=1`, `returncode: 3`.
  {
    severity: 3,
    pattern:
      /\b(?:exit(?:ed)?(?: with)?(?: code| status)?|exit_?code|return ?code|returncode|rc)\s*[=:]?\s*(-?[1-9]\d*)\b/i,
  },
  // An HTTP status: `status=503`, `"status": 404`, `HTTP/1.1" 500`, `GET 404 https://…`.
  {
    severity: 3,
    pattern:
      /\b(?:status|status_?code|statusCode|http_status)["']?\s*[=:]\s*["']?([1-5]\d\d)\b|\bHTTP\/\d(?:\.\d)?"?\s+([1-5]\d\d)\b|\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+([1-5]\d\d)\b/,
    check: (status) => status >= 400,
  },
  {
    severity: 2,
    pattern:
      /\b(?:WARN|WARNING|DEPRECATED|DEPRECATION)\b|(?:^|[^\w.'"-])(?:warning|Warning)(?:\[[^\]\s]{1,20}\])?:|\[(?:warn|warning|Warning)\]|<Warning>|\b[A-Z]\w{0,60}?Warning(?=:)|"(?:level|severity)"\s*:\s*"(?:warn|warning)"|\b(?:level|severity)=(?:warn|warning)\b/,
  },
  { severity: 1, pattern: PROBLEM_WORDS },
];

// Levels in a log's level column (`npm warn`, `[Sun Dec 04 2005] [error]`, Android `E AndroidRuntime:`).
const LEVEL_TOKENS: ReadonlyMap<string, Severity> = new Map([
  ['fatal', 4],
  ['panic', 4],
  ['critical', 4],
  ['crit', 4],
  ['emerg', 4],
  ['alert', 4],
  ['error', 3],
  ['err', 3],
  ['fail', 3],
  ['failed', 2],
  ['failure', 2],
  ['warn', 2],
  ['warning', 2],
]);

// Android logcat: `MM-DD HH:MM:SS.mmm  PID  TID E Tag: …` (threadtime) and `E/Tag( PID): …` (brief).
const LOGCAT_LEVEL = /^\S+\s+\S+\s+\d+\s+\d+\s+([EWF])\s+([^\s:]+)|^([EWF])\/([\w.$-]+)\s*\(\s*\d+\)\s*:/;

// A cheap test every rule needs to pass (grouped by first letter, which the regex engine scans fast): most lines of
// most outputs fail it and cost one scan. Each alternative has its trigger in SIGNAL_TRIGGERS: change both together.
const MAY_SIGNAL =
  /a(?:bort|lert)|broken|c(?:rit|annot|an't|ouldn't|ould not|orrupt|aused by|ode|ore dump)|d(?:enied|eprecat|eadlock)|e(?:rr|merg|xception|xit)|f(?:ail|atal|orbidden)|i(?:nvalid|llegal)|killed|mismatch|n(?:ot ok|ot found|o such|ot permitted|o test)|o(?:verflow|ut of memory|om[-_]kill)|panic|r(?:efused|ejected|c\W)|s(?:evere|egmentation|tatus\W{0,3}[45]\d\d)|t(?:raceback|imed out|imeout)|u(?:nhandled|ncaught|nable|nexpected|nreachable|nresolved|nauthorized)|violation|warn|h(?:ttp\/\d(?:\.\d)?"? [45]\d\d|ead [45]\d\d)|(?:get|post|put|patch|delete|options) [45]\d\d|[✗✕✘]|^E {3}|<fault|(?:^|\s)[EWF](?:\/|\s)/i;

/**
 * What every line the cheap test passes holds, as plain sequences a scanner can look for in one pass over a whole
 * text ({@link signalScanner}): each alternative of {@link MAY_SIGNAL}, written out. Letters match either case
 * (ASCII letters only, as the `i` flag does); `\W`, `\s` and `\d` are the regex classes, `[…]` one of the
 * characters listed. A trigger may be looser than its alternative (the line is then judged and found plain), never
 * stricter: a line start counts as `\s` before the first character, so `\s[ewf]\s` stands for `^E {3}` and
 * `(?:^|\s)[EWF](?:\/|\s)` alike. signal-scanner.test.ts checks that each alternative is covered.
 */
export const SIGNAL_TRIGGERS: readonly string[] = [
  'abort',
  'alert',
  'broken',
  'crit',
  'cannot',
  "can't",
  "couldn't",
  'could not',
  'corrupt',
  'caused by',
  'code',
  'core dump',
  'denied',
  'deprecat',
  'deadlock',
  'err',
  'emerg',
  'exception',
  'exit',
  'fail',
  'fatal',
  'forbidden',
  'invalid',
  'illegal',
  'killed',
  'mismatch',
  'not ok',
  'not found',
  'no such',
  'not permitted',
  'no test',
  'overflow',
  'out of memory',
  'oom[-_]kill',
  'panic',
  'refused',
  'rejected',
  'rc\\W',
  'severe',
  'segmentation',
  'status[45]\\d\\d',
  'status\\W[45]\\d\\d',
  'status\\W\\W[45]\\d\\d',
  'status\\W\\W\\W[45]\\d\\d',
  'traceback',
  'timed out',
  'timeout',
  'unhandled',
  'uncaught',
  'unable',
  'unexpected',
  'unreachable',
  'unresolved',
  'unauthorized',
  'violation',
  'warn',
  'http/\\d [45]\\d\\d',
  'http/\\d" [45]\\d\\d',
  'http/\\d.\\d [45]\\d\\d',
  'http/\\d.\\d" [45]\\d\\d',
  'head [45]\\d\\d',
  'get [45]\\d\\d',
  'post [45]\\d\\d',
  'put [45]\\d\\d',
  'patch [45]\\d\\d',
  'delete [45]\\d\\d',
  'options [45]\\d\\d',
  '[✗✕✘]',
  '<fault',
  '\\s[ewf][/\\s]',
];

/** True when `line` passes the cheap test every signal needs (as {@link lineSignal} reads it: its first 2,000 characters). */
export function maySignal(line: string): boolean {
  return MAY_SIGNAL.test(line.length > 2000 ? line.slice(0, 2000) : line);
}

/** Why `line` stands out, or `undefined` when it reports nothing wrong. The strongest rule that matches wins. */
export function lineSignal(line: string): LineSignal | undefined {
  // Long lines are judged on their first 2,000 characters: a level or an error message comes early.
  if (!maySignal(line)) return undefined;
  const text = line.length > 2000 ? line.slice(0, 2000) : line;
  let best: LineSignal | undefined;
  const level = levelColumn(text);
  if (level) best = level;
  for (const rule of RULES) {
    if (best && best.severity >= rule.severity) break;
    const match = rule.pattern.exec(text);
    if (!match) continue;
    if (rule.check) {
      const value = Number(match.slice(1).find((group) => group !== undefined));
      if (!rule.check(value)) continue;
      best = { severity: value >= 500 ? 3 : 2, signal: match[0].trim() };
      continue;
    }
    best = { severity: rule.severity, signal: match[0].trim() };
  }
  return best;
}

/**
 * A lower-case level word where a log puts its level: first on the line, or right after a short program name
 * (`npm warn …`, `yarn error …`); or an Android logcat level letter.
 */
function levelColumn(text: string): LineSignal | undefined {
  const logcat = LOGCAT_LEVEL.exec(text);
  if (logcat) {
    const letter = logcat[1] ?? logcat[3];
    const signal = logcat[1] === undefined ? `${letter}/${logcat[4]}` : `${letter} ${logcat[2]}`;
    return { severity: letter === 'F' ? 4 : letter === 'E' ? 3 : 2, signal };
  }
  const words = /^\s*(\S+)(?:\s+(\S+))?/.exec(text);
  if (!words) return undefined;
  const candidates = [words[1] as string];
  if (words[2] !== undefined && /^[a-z][\w.-]{0,15}$/.test(words[1] as string)) candidates.push(words[2]);
  for (const candidate of candidates) {
    const word = candidate.replace(/[:!]+$/, '');
    const severity = LEVEL_TOKENS.get(word);
    if (severity !== undefined) return { severity, signal: candidate };
  }
  return undefined;
}
