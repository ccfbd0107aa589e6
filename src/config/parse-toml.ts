import { parse, TomlError } from 'smol-toml';
import { ScratchpadError } from '../core/errors.js';

/** Parses the text of a TOML config file; a syntax error is a `CONFIG_INVALID` naming the file, line and column. */
export function parseToml(text: string, path: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const firstLine = error.message.split('\n')[0] ?? error.message;
    throw new ScratchpadError(
      'CONFIG_INVALID',
      `${path}:${error.line}:${error.column}: invalid TOML: ${firstLine}`,
      {
        hint: 'Fix the syntax at that line (TOML: key = "value", [section] headers), or move the file away to use the defaults.',
        details: { path, line: error.line, column: error.column },
        cause: error,
      },
    );
  }
}
