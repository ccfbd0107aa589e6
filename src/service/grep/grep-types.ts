/** The types of a grep's request and answer, apart from the scan so that declaring them loads nothing else. */

/** Options for a grep over one entry. */
export interface GrepOptions {
  /** A regular expression (RE2 syntax: JavaScript-like without lookaround or backreferences). */
  pattern: string;
  ignoreCase?: boolean;
  /** Matching lines to return (default 100). Counting continues past it unless `stopAtMax`. */
  maxMatches?: number;
  /** Lines of context before and after each match (default 0, at most 50). */
  context?: number;
  /** Longer matching lines are clipped to a window around the match (default 500 characters). */
  maxLineChars?: number;
  /** Stop scanning once `maxMatches` lines were found instead of counting them all. */
  stopAtMax?: boolean;
  /** Hard bound on the scan (default 10 s); past it the grep fails with `REGEX_TIMEOUT`. */
  timeoutMs?: number;
}

/** One matching line. */
export interface GrepMatch {
  /** 1-based line number. */
  line: number;
  /** Code point offset of the first match on the line, from the start of the entry. */
  char: number;
  /** The line (without its `\n`), clipped around the match when longer than `maxLineChars`. */
  text: string;
  clipped: boolean;
}
