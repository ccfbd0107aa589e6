/**
 * The 1-based line where `target` (a key path such as `runtime.llm.fast.provider`) is defined in TOML `text`, for
 * error messages: the line of the key itself, else of the table header or inline table that contains it.
 * Best effort (multi-line strings may mislead it); `undefined` when nothing matches.
 */
export function tomlKeyLine(text: string, target: readonly string[]): number | undefined {
  let table: string[] = [];
  let containing: number | undefined;
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const header = /^\[\[?([^\]]+)\]\]?/.exec(trimmed);
    let path: string[] | undefined;
    if (header) {
      table = splitKey(header[1] ?? '');
      path = table;
    } else {
      const assignment = /^([^=]+)=/.exec(trimmed);
      if (assignment) path = [...table, ...splitKey(assignment[1] ?? '')];
    }
    if (!path) continue;
    if (sameKey(path, target)) return index + 1;
    if (
      containing === undefined &&
      path.length < target.length &&
      sameKey(path, target.slice(0, path.length))
    ) {
      if (!header || path.length === target.length - 1) containing = index + 1;
    }
  }
  return containing;
}

function splitKey(key: string): string[] {
  return key.split('.').map((part) => part.trim().replace(/^["']|["']$/g, ''));
}

function sameKey(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((part, index) => part === right[index]);
}
