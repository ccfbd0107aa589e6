/**
 * Indents JSON text that may be a fragment (a slice cut anywhere): brackets and commas outside strings start new
 * lines; strings (even one cut open at the slice's start or end) are copied as they are. Never throws and never
 * drops a character other than whitespace between tokens.
 */
export function indentJson(text: string, indent = '  '): string {
  let out = '';
  let depth = 0;
  let inString = false;
  let escaped = false;
  const newline = () => `\n${indent.repeat(Math.max(0, depth))}`;
  for (const char of text) {
    if (inString) {
      out += char;
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    switch (char) {
      case '"':
        inString = true;
        out += char;
        break;
      case '{':
      case '[':
        depth += 1;
        out += char + newline();
        break;
      case '}':
      case ']':
        depth -= 1;
        out = out.replace(/[ \t]*\n?[ \t]*$/, '') + newline() + char;
        break;
      case ',':
        out += char + newline();
        break;
      case ':':
        out += ': ';
        break;
      case ' ':
      case '\t':
      case '\n':
      case '\r':
        break;
      default:
        out += char;
    }
  }
  return out;
}

/** Pretty JSON: the standard form when the text parses whole, else {@link indentJson} of the fragment. */
export function prettyJson(text: string): { text: string; whole: boolean } {
  try {
    return { text: JSON.stringify(JSON.parse(text), null, 2), whole: true };
  } catch {
    return { text: indentJson(text), whole: false };
  }
}
