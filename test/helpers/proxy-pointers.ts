import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** Where a cut value's note says the whole value is: an entry, and a JSON Pointer into its JSON (or the entry). */
export interface Pointer {
  entry: string;
  /** A JSON Pointer into the entry's JSON, or `undefined` when the entry's content is the value itself. */
  at?: string;
}

const STRING_NOTE =
  /\n\[… [\d,]+ chars omitted; the whole value is (?:at ("(?:[^"\\]|\\.)*") in the JSON of )?(?:in )?the scratchpad entry "([^"]+)" \([^)]*\) …\]\n/;
const ARRAY_MARKER =
  /^\[… [\d,]+ of [\d,]+ items omitted; the whole array is at ("(?:[^"\\]|\\.)*") in the JSON of the scratchpad entry "([^"]+)" \([^)]*\) …\]$/;

/** The pointer in a cut string's note, or `undefined` when the string has none. */
export function stringPointer(value: string): Pointer | undefined {
  const match = STRING_NOTE.exec(value);
  if (!match) return undefined;
  return { entry: match[2] ?? '', ...(match[1] ? { at: JSON.parse(match[1]) as string } : {}) };
}

/** The pointer of an array's marker element, or `undefined` when the item is no marker. */
export function arrayMarker(item: unknown): Pointer | undefined {
  if (typeof item !== 'string') return undefined;
  const match = ARRAY_MARKER.exec(item);
  return match ? { entry: match[2] ?? '', at: JSON.parse(match[1] ?? '""') as string } : undefined;
}

/** The value a JSON Pointer (RFC 6901) names in `value`. */
export function resolvePointer(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let current = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** An entry's whole content read through the proxy's resources: text as it is, binary as its bytes. */
export async function readEntry(client: Client, session: string, name: string): Promise<string | Buffer> {
  const read = await client.readResource({ uri: `scratchpad://${session}/${name}` });
  const content = read.contents[0] as { text?: string; blob?: string };
  return content.text ?? Buffer.from(content.blob ?? '', 'base64');
}

/** The value a pointer leads to; `read` gives an entry's whole content (e.g. {@link readEntry}). */
export async function follow(
  read: (name: string) => Promise<string | Buffer>,
  pointer: Pointer,
): Promise<unknown> {
  const content = await read(pointer.entry);
  const text = typeof content === 'string' ? content : content.toString('utf8');
  return pointer.at === undefined ? text : resolvePointer(JSON.parse(text), pointer.at);
}
