/** One string found in an action's arguments, with where it sits (`path`, `options.files[2]`, `headers` key). */
export interface ArgumentString {
  /** Key path of the string; never a value. */
  key: string;
  value: string;
}

/** Deepest nesting walked; deeper values are still reported as one JSON string so nothing escapes the guard. */
const MAX_DEPTH = 32;

/**
 * Every string in `args`: values at any depth, object keys (a path can hide in a key), and each array of strings
 * once more joined with spaces (an argv such as `["rm", "-rf", "/"]` reads as a command line).
 */
export function argumentStrings(args: unknown): ArgumentString[] {
  const found: ArgumentString[] = [];
  walk(args, '', 0, found);
  return found;
}

function walk(value: unknown, key: string, depth: number, found: ArgumentString[]): void {
  if (typeof value === 'string') {
    found.push({ key: key || '(arguments)', value });
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (depth >= MAX_DEPTH) {
    found.push({ key: key || '(arguments)', value: JSON.stringify(value) });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      walk(item, `${key}[${index}]`, depth + 1, found);
    });
    if (value.length > 1 && value.every((item) => typeof item === 'string')) {
      found.push({ key: key || '(arguments)', value: value.join(' ') });
    }
    return;
  }
  for (const [name, item] of Object.entries(value)) {
    const path = key === '' ? name : `${key}.${name}`;
    found.push({ key: path, value: name });
    walk(item, path, depth + 1, found);
  }
}

/** Every object key in `args` at any depth (the judge penalizes keys with characters other than [A-Za-z0-9_]). */
export function argumentKeys(args: unknown): string[] {
  const keys: string[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (typeof value !== 'object' || value === null || depth >= MAX_DEPTH) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    for (const [name, item] of Object.entries(value)) {
      keys.push(name);
      visit(item, depth + 1);
    }
  };
  visit(args, 0);
  return keys;
}
