import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ScratchpadError } from '../core/errors.js';

/** The environment variable that carries the token when no `--token-file` is given. */
export const TOKEN_ENVIRONMENT_VARIABLE = 'SCRATCHPAD_TOKEN';

/** Shortest token accepted: 16 characters (`openssl rand -hex 32` makes 64). */
const MIN_TOKEN_LENGTH = 16;

const GENERATE_HINT =
  'Create one with: openssl rand -hex 32 > ~/.config/scratchpad/token && chmod 600 ~/.config/scratchpad/token';

/**
 * The bearer token from `tokenFile` (its first line, trimmed) or else from `SCRATCHPAD_TOKEN`; undefined when
 * neither is given. A file that cannot be read or a token shorter than {@link MIN_TOKEN_LENGTH} is an error.
 */
export function loadToken(options: { tokenFile?: string; env?: NodeJS.ProcessEnv }): string | undefined {
  let token: string | undefined;
  let source: string;
  if (options.tokenFile !== undefined) {
    source = options.tokenFile;
    try {
      token = (readFileSync(options.tokenFile, 'utf8').split(/\r?\n/)[0] ?? '').trim();
    } catch (error) {
      throw new ScratchpadError(
        'CONFIG_INVALID',
        `Cannot read the token file ${options.tokenFile}: ${(error as Error).message}`,
        { hint: GENERATE_HINT, cause: error },
      );
    }
  } else {
    source = TOKEN_ENVIRONMENT_VARIABLE;
    token = options.env?.[TOKEN_ENVIRONMENT_VARIABLE]?.trim();
    if (token === undefined || token === '') return undefined;
  }
  if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token)) {
    throw new ScratchpadError(
      'CONFIG_INVALID',
      `The token in ${source} must be at least ${MIN_TOKEN_LENGTH} characters without spaces.`,
      { hint: GENERATE_HINT },
    );
  }
  return token;
}

/**
 * A check of `Authorization: Bearer TOKEN` headers against `token`, in constant time: both sides are hashed to
 * 32 bytes first, so neither the content nor the length of the token leaks through timing.
 */
export function createBearerCheck(token: string): (authorization: string | undefined) => boolean {
  const expected = digest(token);
  return (authorization) => {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
    const given = digest(match ? (match[1] as string) : '');
    return timingSafeEqual(given, expected) && match !== null;
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
