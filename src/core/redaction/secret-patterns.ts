/**
 * A kind of secret and the RE2 pattern (linear time, no backtracking) that finds it. Without capture groups the
 * whole match is the secret; with groups, group 1 is kept before the secret, group 2 is the secret, and group 3
 * (optional) is kept after it — so `API_KEY=abc` becomes `API_KEY=[REDACTED:env-secret]`.
 */
export interface SecretPattern {
  /** Named in the marker: `[REDACTED:<kind>]` (lowercase letters, digits and `-`). */
  kind: string;
  /** RE2 syntax (JavaScript without lookaround or backreferences). */
  pattern: string;
  ignoreCase?: boolean;
  /** Lines (`^`/`$` at line ends). */
  multiline?: boolean;
}

/** A secret's value that is a placeholder, a reference or a marker already, not a secret. */
export function isPlaceholder(value: string): boolean {
  const bare = value.replace(/^["']|["']$/g, '');
  if (bare.length < 3) return true;
  if (/^(?:\$|<|%|\{\{|\[REDACTED:|\*{3})/.test(bare)) return true;
  if (/^(?:true|false|null|none|undefined|changeme|password|secret|example)$/i.test(bare)) return true;
  return /your[-_ ]?|x{4,}|\.\.\./i.test(bare);
}

const B64 = '[A-Za-z0-9+/=]';
const NEWLINE = '(?:\\r?\\n|\\\\r?\\\\n)';
const PEM_LABEL = '[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?';
/** What a PEM block holds between its lines: base64, line breaks (maybe escaped in JSON), RFC 1421 headers. */
const PEM_BODY = '(?:[A-Za-z0-9+/= \\t\\r\\n]|\\\\[rn]|(?:Proc-Type|DEK-Info|Version|Comment):[^\\r\\n]*)';
/** A name that says its value is a secret: `API_KEY`, `db_password`, `GITHUB_TOKEN`, `client-secret`. */
const SECRET_NAME =
  '(?:[A-Za-z0-9]+[_.-])*(?i:api|access|auth|private|secret|client|master|signing|encryption|session|refresh|bot|app)?(?i:key|token|secret|password|passwd|pwd)';
/** A line's start, after the line-number prefixes read and grep results carry (`12: `, `12- `, `12\t`). */
const LINE_START = '^([ \\t]*(?:\\d+(?:[:|-] ?|\\t))?[ \\t]*(?:export[ \\t]+)?';
/**
 * An environment variable's name that says its value is a secret (`PAYMENTS_API_KEY`) after a blank, maybe in the
 * brackets search snippets put around a matched word.
 */
const ENV_NAME =
  '((?:^|[ \\t])\\[?(?:[A-Z0-9]+_)*(?:API|ACCESS|AUTH|PRIVATE|SECRET|CLIENT|MASTER|SIGNING|ENCRYPTION|SESSION|REFRESH|BOT|APP)?(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PWD)\\]?=)';

/**
 * The built-in patterns, in the order they run: specific token formats first (so a line's kind is the token's),
 * then the generic forms (headers, `.env` lines, JSON fields, URLs). High confidence only: each format has a
 * fixed prefix or a name that says "secret".
 */
export const BUILTIN_SECRET_PATTERNS: readonly SecretPattern[] = [
  // PEM private keys: whole blocks, then a block cut by a slice (a BEGIN with no END, an END with no BEGIN).
  // The newlines may be escaped (`\n` inside a JSON string: GCP service-account files).
  { kind: 'private-key', pattern: `-----BEGIN ?${PEM_LABEL}-----${PEM_BODY}*?-----END ?${PEM_LABEL}-----` },
  {
    kind: 'private-key',
    pattern: `-----BEGIN ?${PEM_LABEL}-----${PEM_BODY}*`,
  },
  {
    kind: 'private-key',
    pattern: `(?:${B64}{16,}${NEWLINE})+${B64}{0,80}${NEWLINE}?-----END ?${PEM_LABEL}-----`,
  },
  { kind: 'anthropic-key', pattern: '\\bsk-ant-[a-z]+[0-9]*-[A-Za-z0-9_-]{32,}' },
  { kind: 'openai-key', pattern: '\\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{32,}' },
  { kind: 'openai-key', pattern: '\\bsk-[A-Za-z0-9_-]{16,}T3BlbkFJ[A-Za-z0-9_-]{16,}' },
  { kind: 'openai-key', pattern: '\\bsk-[A-Za-z0-9]{48}\\b' },
  {
    kind: 'aws-access-key',
    pattern: '\\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z0-9]{16}\\b',
  },
  {
    kind: 'aws-secret-key',
    pattern:
      '((?i:aws_?secret_?access_?key|aws_?secret_?key|secret_?access_?key)["\']?[ \\t]*[:=][ \\t]*["\']?)([A-Za-z0-9/+]{40})([^A-Za-z0-9/+=]|$)',
  },
  { kind: 'gcp-api-key', pattern: '\\bAIza[0-9A-Za-z_-]{35}' },
  { kind: 'gcp-oauth-secret', pattern: '\\bGOCSPX-[A-Za-z0-9_-]{28}' },
  { kind: 'gcp-private-key-id', pattern: '("private_key_id"[ \\t]*:[ \\t]*")([a-f0-9]{40})(")' },
  { kind: 'github-token', pattern: '\\bgh[pousr]_[A-Za-z0-9]{36,255}\\b' },
  { kind: 'github-token', pattern: '\\bgithub_pat_[A-Za-z0-9_]{60,255}\\b' },
  {
    kind: 'gitlab-token',
    pattern: '\\b(?:glpat|gldt|glrt|glptt|glsoat|glft|glimt|glcbt|gloas)-[A-Za-z0-9_-]{20,}',
  },
  { kind: 'slack-token', pattern: '\\bxox[abposre]-[A-Za-z0-9-]{10,}' },
  { kind: 'slack-token', pattern: '\\bxapp-[0-9]-[A-Za-z0-9-]{10,}' },
  {
    kind: 'slack-webhook',
    pattern: 'https://hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,}',
  },
  { kind: 'stripe-key', pattern: '\\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}\\b' },
  { kind: 'stripe-key', pattern: '\\bwhsec_[A-Za-z0-9]{24,}\\b' },
  { kind: 'npm-token', pattern: '\\bnpm_[A-Za-z0-9]{36}\\b' },
  { kind: 'huggingface-token', pattern: '\\bhf_[A-Za-z0-9]{34,}\\b' },
  { kind: 'sendgrid-key', pattern: '\\bSG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}\\b' },
  { kind: 'jwt', pattern: '\\beyJ[A-Za-z0-9_-]{10,}\\.eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,}' },
  {
    kind: 'bearer-token',
    pattern:
      '((?i:proxy-authorization|authorization)["\']?[ \\t]*[:=][ \\t]*["\']?(?i:bearer|token|basic|digest)?[ \\t]*)([A-Za-z0-9._~+/-]{8,}=*)',
  },
  {
    kind: 'api-key-header',
    pattern:
      '((?i:x-api-key|api-key|x-auth-token|x-goog-api-key|private-token|x-access-token)["\']?[ \\t]*[:=][ \\t]*["\']?)([A-Za-z0-9._~+/-]{12,}=*)',
  },
  { kind: 'bearer-token', pattern: '(\\b[Bb]earer[ \\t]+)([A-Za-z0-9._~+/-]{20,}=*)' },
  {
    kind: 'url-credentials',
    pattern: '(\\b[A-Za-z][A-Za-z0-9+.-]{1,31}://[^\\s:/?#@\\[\\]"\'<>]*:)([^\\s/?#@"\'<>]+)(@)',
  },
  // `.env` and shell lines: unquoted values only right after `=` (so `API_KEY = os.environ[...]` in code stays),
  // quoted values also after `KEY = ` and `key: ` (Python, YAML).
  {
    kind: 'env-secret',
    pattern: `${LINE_START}${SECRET_NAME}=)([^\\s'"#]+|"[^"\\n]*"|'[^'\\n]*')`,
    multiline: true,
  },
  {
    kind: 'env-secret',
    pattern: `${LINE_START}${SECRET_NAME}[ \\t]*[=:][ \\t]*)("[^"\\n]+"|'[^'\\n]+')`,
    multiline: true,
  },
  // Mid-line (search snippets join lines with spaces; `cd app && DB_PASSWORD=… ./run`): uppercase names only.
  { kind: 'env-secret', pattern: `${ENV_NAME}([^\\s'"#]+|"[^"\\n]*"|'[^'\\n]*')`, multiline: true },
  {
    kind: 'secret-field',
    pattern:
      '("(?i:password|passwd|secret|client_secret|api_key|apikey|access_token|refresh_token|auth_token|private_key|secret_key|secret_access_key|token)"[ \\t]*:[ \\t]*")((?:[^"\\\\\\n]|\\\\.){3,})(")',
  },
];
