/**
 * Python's `repr()` of a `str`, so the harness preset's messages (`invalid key {key!r}: …`) match the seed's
 * Python reference exactly: single quotes unless the text has a single quote and no double quote; backslash,
 * quote, `\n`, `\r`, `\t` escaped; non-printable characters as `\xhh`, `\uhhhh` or `\Uhhhhhhhh`.
 */
export function pythonRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const character of text) {
    const code = character.codePointAt(0) as number;
    if (character === '\\') out += '\\\\';
    else if (character === quote) out += `\\${quote}`;
    else if (character === '\n') out += '\\n';
    else if (character === '\r') out += '\\r';
    else if (character === '\t') out += '\\t';
    else if (isPrintable(character)) out += character;
    else if (code < 0x100) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return out + quote;
}

const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python's `str.isprintable()` for one character (the ASCII space is printable). */
function isPrintable(character: string): boolean {
  return character === ' ' || !NON_PRINTABLE.test(character);
}
