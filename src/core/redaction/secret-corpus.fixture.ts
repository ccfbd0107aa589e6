/**
 * The redactor's test corpus: fake secrets in their real formats (each must be caught, with its kind) and
 * look-alikes (each must survive byte for byte). The secrets are assembled from pieces at run time so no
 * scanner flags this file; none of them is a live credential.
 */

/** A deterministic string of `length` characters from `alphabet` (a hash of seed and position: no two seeds overlap). */
function filler(seed: number, length: number, alphabet: string): string {
  let out = '';
  for (let index = 0; index < length; index++) {
    let hash = Math.imul(seed, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b);
    hash = Math.imul(hash ^ (hash >>> 16), 0x7feb352d);
    hash = Math.imul(hash ^ (hash >>> 15), 0x846ca68b);
    out += alphabet[((hash ^ (hash >>> 16)) >>> 0) % alphabet.length];
  }
  return out;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const BASE64 = `${ALNUM}+/`;
const URL_SAFE = `${ALNUM}_-`;
const HEX = '0123456789abcdef';

const pemBody = (seed: number) =>
  Array.from({ length: 6 }, (_, line) => filler(seed + line, 64, BASE64)).join('\n');
const pem = (label: string, seed: number) =>
  `-----BEGIN ${label}-----\n${pemBody(seed)}\n${filler(seed + 9, 24, BASE64)}==\n-----END ${label}-----`;
const jwtPart = (json: string) => Buffer.from(json).toString('base64url');
const jwt = `${jwtPart('{"alg":"HS256","typ":"JWT"}')}.${jwtPart('{"sub":"1234567890","name":"Ada","iat":1516239022}')}.${filler(7, 43, URL_SAFE)}`;

/** One fake secret in context: the text, and the kinds the redactor must name (in order). */
export interface CorpusSecret {
  label: string;
  text: string;
  kinds: string[];
  /** A fragment of the secret that must not survive. */
  secret: string;
}

const awsId = `AKIA${filler(1, 16, UPPER_DIGITS)}`;
const awsSecret = filler(2, 40, BASE64);
const gcpKey = pem('PRIVATE KEY', 30).replaceAll('\n', '\\n');
const gcpKeyId = filler(31, 40, HEX);

export const CORPUS_SECRETS: readonly CorpusSecret[] = [
  {
    label: 'RSA private key',
    text: `key:\n${pem('RSA PRIVATE KEY', 10)}\n`,
    kinds: ['private-key'],
    secret: pemBody(10).slice(0, 40),
  },
  {
    label: 'PKCS#8 private key',
    text: pem('PRIVATE KEY', 11),
    kinds: ['private-key'],
    secret: pemBody(11).slice(100, 140),
  },
  {
    label: 'EC private key',
    text: `# ec\n${pem('EC PRIVATE KEY', 12)}`,
    kinds: ['private-key'],
    secret: pemBody(12).slice(70, 110),
  },
  {
    label: 'OpenSSH private key',
    text: pem('OPENSSH PRIVATE KEY', 13),
    kinds: ['private-key'],
    secret: pemBody(13).slice(0, 30),
  },
  {
    label: 'encrypted private key',
    text: pem('ENCRYPTED PRIVATE KEY', 14),
    kinds: ['private-key'],
    secret: pemBody(14).slice(200, 230),
  },
  {
    label: 'PGP private key block',
    text: pem('PGP PRIVATE KEY BLOCK', 15),
    kinds: ['private-key'],
    secret: pemBody(15).slice(10, 50),
  },
  {
    label: 'legacy encrypted private key with headers',
    text: `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,${filler(18, 32, HEX).toUpperCase()}\n\n${pemBody(18)}\n-----END RSA PRIVATE KEY-----`,
    kinds: ['private-key'],
    secret: pemBody(18).slice(0, 40),
  },
  {
    label: 'private key cut at its end by a slice',
    text: pem('RSA PRIVATE KEY', 16).slice(0, 300),
    kinds: ['private-key'],
    secret: pemBody(16).slice(66, 120),
  },
  {
    label: 'private key cut at its start by a slice',
    text: pem('RSA PRIVATE KEY', 17).slice(120),
    kinds: ['private-key'],
    secret: pemBody(17).slice(200, 260),
  },
  {
    label: 'AWS access key id',
    text: `aws_access_key_id = ${awsId}`,
    kinds: ['aws-access-key'],
    secret: awsId,
  },
  {
    label: 'AWS STS key id in JSON',
    text: `{"AccessKeyId": "ASIA${filler(3, 16, UPPER_DIGITS)}"}`,
    kinds: ['aws-access-key'],
    secret: `ASIA${filler(3, 16, UPPER_DIGITS)}`,
  },
  {
    label: 'AWS secret in credentials file',
    text: `[default]\naws_secret_access_key = ${awsSecret}\n`,
    kinds: ['aws-secret-key'],
    secret: awsSecret,
  },
  {
    label: 'AWS secret in env',
    text: `AWS_SECRET_ACCESS_KEY=${filler(4, 40, BASE64)}`,
    kinds: ['aws-secret-key'],
    secret: filler(4, 40, BASE64),
  },
  {
    label: 'AWS secret in JSON',
    text: `{"SecretAccessKey": "${filler(5, 40, BASE64)}"}`,
    kinds: ['aws-secret-key'],
    secret: filler(5, 40, BASE64),
  },
  {
    label: 'GCP service account JSON',
    text: `{\n  "type": "service_account",\n  "project_id": "demo-123",\n  "private_key_id": "${gcpKeyId}",\n  "private_key": "${gcpKey}\\n",\n  "client_email": "svc@demo-123.iam.gserviceaccount.com"\n}`,
    kinds: ['private-key', 'gcp-private-key-id'],
    secret: pemBody(30).slice(0, 40),
  },
  {
    label: 'GCP API key',
    text: `https://maps.googleapis.com/maps/api/js?key=AIza${filler(32, 35, URL_SAFE)}`,
    kinds: ['gcp-api-key'],
    secret: filler(32, 35, URL_SAFE),
  },
  {
    label: 'GCP OAuth client secret',
    text: `client_secret: GOCSPX-${filler(33, 28, URL_SAFE)}`,
    kinds: ['gcp-oauth-secret'],
    secret: filler(33, 28, URL_SAFE),
  },
  {
    label: 'GitHub classic token',
    text: `token ghp_${filler(40, 36, ALNUM)} expires`,
    kinds: ['github-token'],
    secret: filler(40, 36, ALNUM),
  },
  {
    label: 'GitHub OAuth token',
    text: `gho_${filler(41, 36, ALNUM)}`,
    kinds: ['github-token'],
    secret: filler(41, 36, ALNUM),
  },
  {
    label: 'GitHub Actions token',
    text: `GITHUB_TOKEN: ghs_${filler(42, 36, ALNUM)}`,
    kinds: ['github-token'],
    secret: filler(42, 36, ALNUM),
  },
  {
    label: 'GitHub fine-grained token',
    text: `github_pat_${filler(43, 22, ALNUM)}_${filler(44, 59, ALNUM)}`,
    kinds: ['github-token'],
    secret: filler(44, 59, ALNUM),
  },
  {
    label: 'GitLab personal token',
    text: `PRIVATE-TOKEN: glpat-${filler(45, 20, URL_SAFE)}`,
    kinds: ['gitlab-token'],
    secret: filler(45, 20, URL_SAFE),
  },
  {
    label: 'GitLab deploy token',
    text: `gldt-${filler(46, 20, ALNUM)}`,
    kinds: ['gitlab-token'],
    secret: filler(46, 20, ALNUM),
  },
  {
    label: 'Slack bot token',
    text: `SLACK=xoxb-${filler(50, 12, '0123456789')}-${filler(51, 13, '0123456789')}-${filler(52, 24, ALNUM)}`,
    kinds: ['slack-token'],
    secret: filler(52, 24, ALNUM),
  },
  {
    label: 'Slack user token',
    text: `"xoxp-${filler(53, 12, '0123456789')}-${filler(54, 24, ALNUM)}"`,
    kinds: ['slack-token'],
    secret: filler(54, 24, ALNUM),
  },
  {
    label: 'Slack app token',
    text: `xapp-1-A${filler(55, 10, UPPER_DIGITS)}-${filler(56, 13, '0123456789')}-${filler(57, 64, HEX)}`,
    kinds: ['slack-token'],
    secret: filler(57, 64, HEX),
  },
  {
    label: 'Slack webhook',
    text: `curl -X POST https://hooks.slack.com/services/T${filler(58, 8, UPPER_DIGITS)}/B${filler(59, 8, UPPER_DIGITS)}/${filler(60, 24, ALNUM)}`,
    kinds: ['slack-webhook'],
    secret: filler(60, 24, ALNUM),
  },
  {
    label: 'Stripe live secret key',
    text: `stripe.api_key = "sk_live_${filler(61, 24, ALNUM)}"`,
    kinds: ['stripe-key'],
    secret: filler(61, 24, ALNUM),
  },
  {
    label: 'Stripe test restricted key',
    text: `rk_test_${filler(62, 99, ALNUM)}`,
    kinds: ['stripe-key'],
    secret: filler(62, 99, ALNUM),
  },
  {
    label: 'Stripe webhook secret',
    text: `whsec_${filler(63, 32, ALNUM)}`,
    kinds: ['stripe-key'],
    secret: filler(63, 32, ALNUM),
  },
  {
    label: 'OpenAI project key',
    text: `OPENAI_API_KEY=sk-proj-${filler(70, 156, URL_SAFE)}`,
    kinds: ['openai-key'],
    secret: filler(70, 156, URL_SAFE),
  },
  {
    label: 'OpenAI legacy key',
    text: `openai.api_key = 'sk-${filler(71, 20, ALNUM)}T3BlbkFJ${filler(72, 20, ALNUM)}'`,
    kinds: ['openai-key'],
    secret: filler(72, 20, ALNUM),
  },
  {
    label: 'OpenAI service account key',
    text: `sk-svcacct-${filler(73, 64, URL_SAFE)}`,
    kinds: ['openai-key'],
    secret: filler(73, 64, URL_SAFE),
  },
  {
    label: 'Anthropic key',
    text: `x-api-key: sk-ant-api03-${filler(74, 93, URL_SAFE)}AA`,
    kinds: ['anthropic-key'],
    secret: filler(74, 93, URL_SAFE),
  },
  {
    label: 'Anthropic admin key',
    text: `sk-ant-admin01-${filler(75, 93, URL_SAFE)}AA`,
    kinds: ['anthropic-key'],
    secret: filler(75, 93, URL_SAFE),
  },
  {
    label: 'npm token',
    text: `//registry.npmjs.org/:_authToken=npm_${filler(76, 36, ALNUM)}`,
    kinds: ['npm-token'],
    secret: filler(76, 36, ALNUM),
  },
  {
    label: 'Hugging Face token',
    text: `HF hf_${filler(77, 34, ALNUM)}`,
    kinds: ['huggingface-token'],
    secret: filler(77, 34, ALNUM),
  },
  {
    label: 'SendGrid key',
    text: `SG.${filler(78, 22, URL_SAFE)}.${filler(79, 43, URL_SAFE)}`,
    kinds: ['sendgrid-key'],
    secret: filler(79, 43, URL_SAFE),
  },
  { label: 'JWT', text: `id_token=${jwt}&state=1`, kinds: ['jwt'], secret: jwt.slice(40, 80) },
  {
    label: 'Authorization bearer header',
    text: `> GET /v1/me HTTP/1.1\n> Authorization: Bearer ${filler(80, 40, URL_SAFE)}\n> Accept: */*`,
    kinds: ['bearer-token'],
    secret: filler(80, 40, URL_SAFE),
  },
  {
    label: 'Authorization basic header',
    text: `Authorization: Basic ${Buffer.from('admin:hunter2-long').toString('base64')}`,
    kinds: ['bearer-token'],
    secret: Buffer.from('admin:hunter2-long').toString('base64'),
  },
  {
    label: 'authorization header in JSON',
    text: `{"headers": {"authorization": "Bearer ${filler(81, 32, ALNUM)}"}}`,
    kinds: ['bearer-token'],
    secret: filler(81, 32, ALNUM),
  },
  {
    label: 'bare bearer token',
    text: `curl -H 'X: y' then use bearer ${filler(82, 48, URL_SAFE)}`,
    kinds: ['bearer-token'],
    secret: filler(82, 48, URL_SAFE),
  },
  {
    label: 'API key header',
    text: `X-API-Key: ${filler(83, 32, HEX)}`,
    kinds: ['api-key-header'],
    secret: filler(83, 32, HEX),
  },
  {
    label: 'URL with password',
    text: `DATABASE_URL=postgres://app:${filler(84, 16, ALNUM)}@db.internal:5432/prod`,
    kinds: ['url-credentials'],
    secret: filler(84, 16, ALNUM),
  },
  {
    label: 'Redis URL with password only',
    text: `connecting to redis://:${filler(85, 20, ALNUM)}@cache:6379/0`,
    kinds: ['url-credentials'],
    secret: filler(85, 20, ALNUM),
  },
  {
    label: 'git remote with token',
    text: `https://oauth2:${filler(86, 20, ALNUM)}@gitlab.example.com/group/repo.git`,
    kinds: ['url-credentials'],
    secret: filler(86, 20, ALNUM),
  },
  {
    label: '.env API key',
    text: `NODE_ENV=production\nPAYMENTS_API_KEY=${filler(90, 32, ALNUM)}\nPORT=8080`,
    kinds: ['env-secret'],
    secret: filler(90, 32, ALNUM),
  },
  {
    label: '.env quoted token',
    text: `export SERVICE_TOKEN="${filler(91, 24, ALNUM)}"`,
    kinds: ['env-secret'],
    secret: filler(91, 24, ALNUM),
  },
  {
    label: '.env secret',
    text: `JWT_SECRET='${filler(92, 30, ALNUM)}'`,
    kinds: ['env-secret'],
    secret: filler(92, 30, ALNUM),
  },
  {
    label: '.env password',
    text: `DB_PASSWORD=${filler(93, 14, ALNUM)}`,
    kinds: ['env-secret'],
    secret: filler(93, 14, ALNUM),
  },
  {
    label: 'PASSWORD line',
    text: `PASSWORD=${filler(94, 12, ALNUM)}`,
    kinds: ['env-secret'],
    secret: filler(94, 12, ALNUM),
  },
  {
    label: '.env line in a read result with line numbers',
    text: `   12\tSTRIPE_SECRET=${filler(95, 20, ALNUM)}`,
    kinds: ['env-secret'],
    secret: filler(95, 20, ALNUM),
  },
  {
    label: '.env line in grep output',
    text: `7: SIGNING_KEY=${filler(96, 20, ALNUM)}`,
    kinds: ['env-secret'],
    secret: filler(96, 20, ALNUM),
  },
  {
    label: '.env line in a search snippet',
    text: `config.env — NODE_ENV=production [PAYMENTS_API_KEY]=${filler(101, 24, ALNUM)} LOG=1`,
    kinds: ['env-secret'],
    secret: filler(101, 24, ALNUM),
  },
  {
    label: 'secret in a shell command line',
    text: `cd app && DB_PASSWORD=${filler(102, 16, ALNUM)} ./migrate`,
    kinds: ['env-secret'],
    secret: filler(102, 16, ALNUM),
  },
  {
    label: 'Java properties password',
    text: `spring.datasource.password=${filler(103, 16, ALNUM)}`,
    kinds: ['env-secret'],
    secret: filler(103, 16, ALNUM),
  },
  {
    label: 'Python hard-coded password',
    text: `DB_PASSWORD = "${filler(97, 16, ALNUM)}"`,
    kinds: ['env-secret'],
    secret: filler(97, 16, ALNUM),
  },
  {
    label: 'YAML quoted secret',
    text: `db:\n  password: "${filler(98, 16, ALNUM)}"`,
    kinds: ['env-secret'],
    secret: filler(98, 16, ALNUM),
  },
  {
    label: 'JSON password field',
    text: `{"user": "ada", "password": "${filler(99, 18, ALNUM)}"}`,
    kinds: ['secret-field'],
    secret: filler(99, 18, ALNUM),
  },
  {
    label: 'JSON client secret',
    text: `{"client_id": "abc", "client_secret": "${filler(100, 40, URL_SAFE)}"}`,
    kinds: ['secret-field'],
    secret: filler(100, 40, URL_SAFE),
  },
];

const sha256 = filler(200, 64, HEX);
const png = `iVBORw0KGgoAAAANSUhEUgAA${filler(201, 3000, BASE64)}`;

/** Text that looks like secrets but is not: it must come out unchanged. */
export const CORPUS_LOOKALIKES: readonly { label: string; text: string }[] = [
  { label: 'SHA-256 hex', text: `sha256:${sha256}` },
  {
    label: 'git SHAs',
    text: `commit ${filler(202, 40, HEX)}\nMerge: ${filler(203, 7, HEX)} ${filler(204, 7, HEX)}`,
  },
  {
    label: 'UUIDs',
    text: 'request 3f2504e0-4f89-11d3-9a0c-0305e82c3301 and 123e4567-e89b-12d3-a456-426614174000',
  },
  { label: 'base64 image data URI', text: `<img src="data:image/png;base64,${png}">` },
  { label: 'base64 image in JSON', text: `{"type": "image", "data": "${png}", "mimeType": "image/png"}` },
  {
    label: 'Stripe object ids',
    text: 'cus_NffrFeUfNV2Hib pi_3MtwBwLkdIwHu7ix28a3tqPa ch_3MmlLrLkdIwHu7ix0snN0B15',
  },
  { label: 'Stripe publishable key', text: `pk_live_${filler(205, 24, ALNUM)}` },
  { label: 'npm integrity hash', text: `"integrity": "sha512-${filler(206, 86, BASE64)}=="` },
  { label: 'SRI hash', text: `<script integrity="sha384-${filler(207, 64, BASE64)}">` },
  { label: 'MongoDB ObjectId', text: '{"_id": {"$oid": "507f1f77bcf86cd799439011"}}' },
  { label: 'Docker image digest', text: `nginx@sha256:${filler(208, 64, HEX)}` },
  { label: 'token counts', text: 'MAX_TOKENS=4096\nprompt_tokens: 1532\n"total_tokens": 2048' },
  {
    label: 'code reading a key from the environment',
    text: 'API_KEY = os.environ["API_KEY"]\nconst token = process.env.GITHUB_TOKEN;',
  },
  {
    label: 'placeholders in docs',
    text: `OPENAI_API_KEY=your-api-key-here\nAPI_KEY=${'$'}{API_KEY}\nSECRET_KEY=<secret>\nPASSWORD=`,
  },
  {
    label: 'prose about tokens',
    text: 'Bearer tokens are sent in the Authorization header. The password is never logged.',
  },
  { label: 'Authorization header template', text: 'Authorization: Bearer <token>' },
  {
    label: 'URL with port and at-sign in path',
    text: 'https://example.com:8443/users/@ada and git@github.com:owner/repo.git',
  },
  { label: 'email addresses', text: 'contact ada.lovelace@example.com or ops+alerts@example.org' },
  { label: 'JSON pagination cursor', text: '{"next_page_token": "CAESBggBEAEYAQ", "max_results": 50}' },
  { label: 'hex API response ids', text: `trace_id=${filler(209, 32, HEX)} span_id=${filler(210, 16, HEX)}` },
  {
    label: 'Kubernetes resource names',
    text: 'pod/api-7d9f8b6c5-x2k4q Running\nsecret/default-token-abcde Opaque 3',
  },
  {
    label: 'certificate (public)',
    text: `-----BEGIN CERTIFICATE-----\n${pemBody(211)}\n-----END CERTIFICATE-----`,
  },
  { label: 'public key', text: `-----BEGIN PUBLIC KEY-----\n${pemBody(212)}\n-----END PUBLIC KEY-----` },
  {
    label: 'ssh public key',
    text: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${filler(213, 43, BASE64)} ada@laptop`,
  },
  { label: 'minified JavaScript', text: 'var a=function(e){return e.key=e.token||null,e.secret===void 0};' },
  { label: 'CSV of ids', text: 'id,sku,price\n1,AKIAT-100,9.99\n2,SK-LIVE-2,19.99' },
];
