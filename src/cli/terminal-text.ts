/**
 * C0 and C1 control characters and DEL, tab and newline excepted: what lets text move the cursor, clear the
 * screen, write the clipboard (OSC 52) or retitle the window once it reaches a terminal (ESC, BEL, `\r`, CSI 0x9b…).
 */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * `text` with every control character but tab and newline shown as `?`, so that text from a model or a tool (hostile)
 * prints as text and no escape sequence it carries reaches the terminal.
 */
export function neutraliseControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, '?');
}

/** Where a text goes: {@link textForStdout} decides from it. */
export interface StdoutTarget {
  /** True when stdout is a terminal (`process.stdout.isTTY`); false for a pipe or a file. */
  terminal: boolean;
  /** True with `--raw`: the exact characters even on a terminal. */
  raw: boolean;
}

/**
 * The text as it goes to stdout: neutralised ({@link neutraliseControlCharacters}) on a terminal, the exact
 * characters to a pipe or a file, or anywhere with `raw`.
 */
export function textForStdout(text: string, target: StdoutTarget): string {
  return target.terminal && !target.raw ? neutraliseControlCharacters(text) : text;
}

/** True when `stream` is a terminal (Node sets `isTTY` on a `tty.WriteStream`). */
export function isTerminal(stream: NodeJS.WritableStream): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}
