import { expandBraces } from './brace-expansion.js';
import { expandHome, type GuardContext } from './guard-context.js';
import { decodeEscapes, normalizeUnicode, shellUnquote } from './text-variants.js';

/** Placeholder for a `$(…)` or backtick substitution: a value the guard cannot know in advance. */
export const SUBSTITUTION = '\u0000subst\u0000';

/** One simple command of a command line, as words. */
export interface ShellSegment {
  words: string[];
  /** True when the previous segment pipes into this one (`a | b`). */
  piped: boolean;
}

/** A command line as the destructive-command rules see it. */
export interface ParsedCommand {
  /** Quotes, escapes and `$IFS` resolved, `~`/`$HOME`/`$USER` expanded, whitespace collapsed; substitutions kept. */
  text: string;
  segments: ShellSegment[];
}

const SEPARATOR = /(\|\||&&|;;|[;&|\n(){}<>])/;

/**
 * Reads a command line the way the guard needs: the plain text and its escape-decoded spelling (`$'\x72m'` is
 * `rm`) are unquoted and expanded, `$(…)` and backtick substitutions become a {@link SUBSTITUTION} placeholder
 * while their inner commands are parsed as segments of their own, brace lists are expanded, and the result is cut
 * into simple commands at `;`, `&&`, `||`, `|`, `&`, newlines, parentheses, braces and redirections.
 */
export function parseCommandVariants(
  command: string,
  context: Pick<GuardContext, 'home' | 'user'>,
): ParsedCommand[] {
  const base = normalizeUnicode(command);
  const spellings = new Set([base, normalizeUnicode(decodeEscapes(base))]);
  return [...spellings].map((spelling) => parseCommand(spelling, context));
}

function parseCommand(spelling: string, context: Pick<GuardContext, 'home' | 'user'>): ParsedCommand {
  const inner: string[] = [];
  const source = expandHome(shellUnquote(spelling), context);
  let text = source;
  for (let round = 0; round < 8; round += 1) {
    const next = text
      .replace(/\$\(([^()]*)\)/g, (_match, body: string) => {
        inner.push(body);
        return SUBSTITUTION;
      })
      .replace(/`([^`]*)`/g, (_match, body: string) => {
        inner.push(body);
        return SUBSTITUTION;
      });
    if (next === text) break;
    text = next;
  }
  text = text
    .split(/[ \t]+/)
    .flatMap((word) => expandBraces(word))
    .join(' ');
  const segments: ShellSegment[] = [];
  for (const source of [text, ...inner]) {
    let piped = false;
    for (const part of source.split(SEPARATOR)) {
      if (part === '|') {
        piped = true;
        continue;
      }
      if (SEPARATOR.test(part)) {
        piped = false;
        continue;
      }
      const words = part.split(/\s+/).filter((word) => word !== '');
      if (words.length > 0) {
        segments.push({ words, piped });
        piped = false;
      }
    }
  }
  return { text: source.replace(/\s+/g, ' ').trim(), segments };
}
