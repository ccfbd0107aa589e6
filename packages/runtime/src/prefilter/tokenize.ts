/**
 * Function words that carry no signal about which executor a request needs (English and Italian, the languages of
 * the seed's affinity lists). Without them, "read the file" would give every description containing "the" a point.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  [
    // English
    'an and are as at be by can could do does for from has have how if in into is it its me my of on or our please',
    'so than that the their them then there these this those to us was we were what when where which who why will',
    'with would you your',
    // Italian (accents already folded)
    'al alla alle ai agli allo che chi ci col con da dal dalla dai dei del della delle degli dello di ed gli il la le',
    'lo ma mi ne nel nella nei nelle non per piu poi se si sono su sul sulla ti tra fra un una uno vi',
  ]
    .join(' ')
    .split(' '),
);

const ASCII = /^[\x00-\x7f]*$/;
const MARKS = /\p{M}+/gu;
const WORD = /[\p{L}\p{N}]+/gu;

/** Lowercase with accents folded: NFKD, then combining marks removed ("Così" → "cosi", "ﬁle" → "file"). */
export function foldText(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFKD').replace(MARKS, '').toLowerCase();
}

/**
 * The pre-filter's tokens: folded text split into runs of letters and digits (`web_fetch` → `web`, `fetch`;
 * `https://httpbin.org/get` → `https`, `httpbin`, `org`, `get`), without one-character tokens and
 * {@link STOPWORDS}. Duplicates are kept; callers that count distinct words dedupe.
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const match of foldText(text).matchAll(WORD)) {
    const token = match[0];
    if (token.length > 1 && !STOPWORDS.has(token)) tokens.push(token);
  }
  return tokens;
}
