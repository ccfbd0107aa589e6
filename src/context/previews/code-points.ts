/** The first `count` code points of `text`, without splitting a surrogate pair. */
export function codePointPrefix(text: string, count: number): string {
  let units = 0;
  for (let points = 0; points < count && units < text.length; points++) units += unitsAt(text, units);
  return text.slice(0, units);
}

/** The last `count` code points of `text`, without splitting a surrogate pair. */
export function codePointSuffix(text: string, count: number): string {
  let start = text.length;
  for (let points = 0; points < count && start > 0; points++) {
    const low = text.charCodeAt(start - 1);
    const high = start >= 2 ? text.charCodeAt(start - 2) : 0;
    start -= low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? 2 : 1;
  }
  return text.slice(start);
}

function unitsAt(text: string, index: number): number {
  const high = text.charCodeAt(index);
  if (high < 0xd800 || high > 0xdbff || index + 1 >= text.length) return 1;
  const low = text.charCodeAt(index + 1);
  return low >= 0xdc00 && low <= 0xdfff ? 2 : 1;
}
