import { ScratchpadError } from '../../core/errors.js';
import { formatBytes } from '../../core/format.js';
import { isValidName } from '../../core/names.js';
import type { SessionScratchpad } from '../../service/scratchpad.js';
import type { StepRecord } from './step-values.js';

/** Options for {@link resolveReferences}. */
export interface ResolveReferencesOptions {
  /** The session whose entries `{{scratchpad:NAME}}` and stored steps read from. */
  session: SessionScratchpad;
  /** The turn's steps so far (1-based); omitted outside an agent turn (MCP), where only `{{scratchpad:NAME}}` works. */
  steps?: readonly StepRecord[];
  /** Largest size the references of one call may expand to, all substitutions together (default 64 MiB). */
  maxBytes?: number;
}

/** What resolution did, for the turn log (and the mnestome-style piping record). */
export interface ResolvedReferences<T> {
  value: T;
  /** The references that were substituted, e.g. `step1.content`, `scratchpad:plan`. */
  references: string[];
  /** Steps referenced (1-based), without duplicates. */
  steps: number[];
}

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
const REFERENCE = /\\?\{\{\s*([^{}]+?)\s*\}\}/g;
const WHOLE = /^\s*\{\{\s*([^{}]+?)\s*\}\}\s*$/;

/**
 * Replaces `{{stepN.field}}` (nested fields, 1-based steps) and `{{scratchpad:NAME}}` in tool arguments with the
 * full values they name, read from the store for offloaded steps. A reference that is a whole argument keeps the
 * value's type (an object stays an object); inside a longer string it is interpolated (strings as is, other
 * values as JSON). `\{{` writes a literal `{{`. An unresolvable reference is a `REFERENCE_UNRESOLVED` error that
 * says what exists; a literal is never left in the argument.
 */
export async function resolveReferences<T>(
  args: T,
  options: ResolveReferencesOptions,
): Promise<ResolvedReferences<T>> {
  const found: string[] = [];
  const steps = new Set<number>();
  const cache = new Map<string, { value: unknown; bytes: number }>();
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  let expanded = 0;
  const lookup = async (expression: string): Promise<unknown> => {
    const key = expression.trim();
    let resolved = cache.get(key);
    if (!resolved) {
      const one = await resolveOne(key, options);
      resolved = { value: one.value, bytes: sizeOf(one.value) };
      cache.set(key, resolved);
      if (one.step !== undefined) steps.add(one.step);
    }
    expanded += resolved.bytes;
    if (expanded > maxBytes) {
      throw new ScratchpadError(
        'CONTENT_TOO_LARGE',
        `The references in these arguments expand to more than ${formatBytes(maxBytes)}.`,
        { hint: 'Reference fewer or smaller entries, or read the slice you need first.' },
      );
    }
    found.push(key);
    return resolved.value;
  };
  const visit = async (value: unknown): Promise<unknown> => {
    if (typeof value === 'string') return resolveString(value, lookup);
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (const item of value) out.push(await visit(item));
      return out;
    }
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[key] = await visit(item);
      return out;
    }
    return value;
  };
  const value = (await visit(args)) as T;
  return { value, references: [...new Set(found)], steps: [...steps].sort((a, b) => a - b) };
}

/** True when `value` (deeply) contains a reference. */
export function containsReference(value: unknown): boolean {
  if (typeof value === 'string') return /(^|[^\\])\{\{[^{}]+\}\}/.test(value);
  if (Array.isArray(value)) return value.some(containsReference);
  if (value !== null && typeof value === 'object') return Object.values(value).some(containsReference);
  return false;
}

async function resolveString(
  text: string,
  lookup: (expression: string) => Promise<unknown>,
): Promise<unknown> {
  const whole = WHOLE.exec(text);
  if (whole && !text.trimStart().startsWith('\\')) return lookup(whole[1] as string);
  if (!text.includes('{{')) return text;
  let out = '';
  let last = 0;
  for (const match of text.matchAll(REFERENCE)) {
    out += text.slice(last, match.index);
    last = (match.index as number) + match[0].length;
    if (match[0].startsWith('\\')) {
      out += match[0].slice(1);
      continue;
    }
    const value = await lookup(match[1] as string);
    out += typeof value === 'string' ? value : JSON.stringify(value);
  }
  return out + text.slice(last);
}

async function resolveOne(
  expression: string,
  options: ResolveReferencesOptions,
): Promise<{ value: unknown; step?: number }> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (expression.startsWith('scratchpad:')) {
    const name = expression.slice('scratchpad:'.length).trim();
    if (!isValidName(name))
      throw unresolved(
        expression,
        `"${name}" is not a valid entry name.`,
        'Use {{scratchpad:NAME}} with the name of an existing entry.',
      );
    const entry = await options.session.find(name);
    if (!entry) {
      const names = (await options.session.list({ limit: 20 })).entries.map((item) => item.name);
      throw unresolved(
        expression,
        `there is no entry "${name}".`,
        names.length ? `Entries: ${names.join(', ')}.` : 'The session has no entries.',
      );
    }
    checkSize(expression, entry.bytes, maxBytes);
    return { value: (await options.session.read(name)).content };
  }
  const match = /^step(\d+)(?:\.(.+))?$/.exec(expression);
  if (!match) {
    throw unresolved(
      expression,
      'it is neither {{stepN.field}} nor {{scratchpad:NAME}}.',
      'Write {{step1.content}} (1-based step, then the field) or {{scratchpad:NAME}}.',
    );
  }
  const number = Number(match[1]);
  if (options.steps === undefined) {
    throw unresolved(
      expression,
      'step references work only inside an agent turn (scratchpad run).',
      'Use {{scratchpad:NAME}} with the name of a stored entry (an offload notice names it).',
    );
  }
  const record = options.steps.find((step) => step.step === number);
  if (!record) {
    const available = options.steps.map((step) => step.step);
    throw unresolved(
      expression,
      `step ${number} does not exist.`,
      available.length
        ? `Steps so far: ${available.join(', ')} (1-based).`
        : 'No step has run yet in this turn.',
    );
  }
  const path = match[2] === undefined ? [] : match[2].split('.').map((part) => part.trim());
  if (path.some((part) => part.length === 0))
    throw unresolved(expression, 'the field path has an empty part.', 'Write fields as step1.metadata.path.');
  const value = await valueAt(record, path, expression, options, maxBytes);
  return { value, step: number };
}

async function valueAt(
  record: StepRecord,
  path: string[],
  expression: string,
  options: ResolveReferencesOptions,
  maxBytes: number,
): Promise<unknown> {
  const stored = record.value;
  let root: unknown;
  let rest = path;
  if (stored.kind === 'inline') {
    root = stored.value;
  } else if (stored.storedField !== null && (path.length === 0 || path[0] === stored.storedField)) {
    const entry = await options.session.get({ id: stored.entryId });
    checkSize(expression, entry.bytes, maxBytes);
    const content = (await options.session.read({ id: stored.entryId })).content;
    if (path.length === 0) return { ...stored.shell, [stored.storedField]: content };
    root = content;
    rest = path.slice(1);
  } else if (stored.storedField !== null) {
    root = stored.shell;
  } else {
    const entry = await options.session.get({ id: stored.entryId });
    checkSize(expression, entry.bytes, maxBytes);
    const text = (await options.session.read({ id: stored.entryId })).content;
    try {
      root = JSON.parse(text);
    } catch {
      root = text;
    }
  }
  let current = root;
  for (let index = 0; index < rest.length; index++) {
    const key = rest[index] as string;
    if (current !== null && typeof current === 'object' && Object.hasOwn(current, key)) {
      current = (current as Record<string, unknown>)[key];
      continue;
    }
    if (typeof current === 'string' && index === 0 && stored.kind === 'inline') {
      // A plain-text observation: the only field is the text itself.
      throw unresolved(
        expression,
        `step ${record.step} (${record.tool}) returned plain text, which has no field "${key}".`,
        `Use {{step${record.step}}} for the whole text.`,
      );
    }
    const where = [`step${record.step}`, ...rest.slice(0, index)].join('.');
    const fields = current !== null && typeof current === 'object' ? Object.keys(current as object) : [];
    throw unresolved(
      expression,
      `${where} has no field "${key}".`,
      fields.length
        ? `Fields of ${where}: ${fields.slice(0, 30).join(', ')}.`
        : `${where} is ${describe(current)}, not an object.`,
    );
  }
  return current;
}

function checkSize(expression: string, bytes: number, maxBytes: number): void {
  if (bytes > maxBytes) {
    throw new ScratchpadError(
      'CONTENT_TOO_LARGE',
      `{{${expression}}} is ${formatBytes(bytes)}; a reference expands to at most ${formatBytes(maxBytes)}.`,
      {
        hint: 'Reference a smaller entry, or read the slice you need first.',
      },
    );
  }
}

function unresolved(expression: string, reason: string, hint: string): ScratchpadError {
  return new ScratchpadError('REFERENCE_UNRESOLVED', `Cannot resolve {{${expression}}}: ${reason}`, {
    hint,
    details: { reference: expression },
  });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? 'a string' : `a ${typeof value}`;
}

/** The UTF-8 size a value adds where it is substituted (strings as they are, other values as JSON). */
function sizeOf(value: unknown): number {
  return Buffer.byteLength(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''), 'utf8');
}
