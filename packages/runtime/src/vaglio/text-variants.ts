/** Characters that render as nothing and could split a word the guard looks for. */
const INVISIBLE = /[\u00ad\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\ufeff]/g;

/** NFKC (fullwidth `／ｅｔｃ` → `/etc`) and invisible characters removed. */
export function normalizeUnicode(text: string): string {
  return text.normalize('NFKC').replace(INVISIBLE, '');
}

/** Decodes `%XX` sequences (as UTF-8 where they form it), up to three times for `%252F`-style double encoding. */
export function percentDecode(text: string): string {
  let current = text;
  for (let round = 0; round < 3 && current.includes('%'); round += 1) {
    const next = current.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run.replace(/%([0-9a-f]{2})/gi, (_match, hex: string) =>
          String.fromCharCode(Number.parseInt(hex, 16)),
        );
      }
    });
    if (next === current) break;
    current = next;
  }
  return current;
}

/** Decodes `\xHH`, `\uHHHH` and octal `\NNN` escapes, as `printf`, `echo -e` and `$'…'` would. */
export function decodeEscapes(text: string): string {
  return text
    .replace(/\\x([0-9a-f]{2})/gi, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .replace(/\\u([0-9a-f]{4})/gi, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .replace(/\\(0?[0-7]{1,3})/g, (_match, octal: string) =>
      String.fromCharCode(Number.parseInt(octal, 8) & 0xff),
    );
}

/**
 * What a POSIX shell would make of quoting: line continuations joined, `$IFS` read as a space, `${NAME}` as
 * `$NAME`, backslash escapes and quote characters removed (`/et'c'/pa\ss""wd` → `/etc/passwd`).
 */
export function shellUnquote(text: string): string {
  return text
    .replace(/\\\r?\n/g, '')
    .replace(/\$\{IFS[^}]*\}|\$IFS(?![A-Za-z0-9_])/g, ' ')
    .replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, '$$$1')
    .replace(/\$'/g, "'")
    .replace(/\\(.)/gs, '$1')
    .replace(/['"]/g, '');
}

/**
 * The spellings of one argument string that the guard checks: as given (Unicode-normalized), URL-decoded, and
 * shell-unquoted with and without escape decoding. A match in any of them counts.
 */
export function textVariants(text: string): string[] {
  const base = normalizeUnicode(text);
  const decoded = normalizeUnicode(percentDecode(base));
  const variants = new Set([
    base,
    decoded,
    shellUnquote(decoded),
    shellUnquote(normalizeUnicode(decodeEscapes(decoded))),
  ]);
  return [...variants];
}
