import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCount } from '../src/core/format.js';
import { codePointLength } from '../src/core/utf8.js';
import { jsonPointer } from '../src/mcp/proxy/json-pointer.js';
import { createScratchpad, type Scratchpad } from '../src/service/scratchpad.js';
import { createSqliteDriver } from '../src/stores/sqlite/sqlite-driver.js';
import { builtCli } from './helpers/built-cli.js';
import { connectStdio } from './helpers/cli-client.js';
import { arrayMarker, follow, type Pointer, stringPointer } from './helpers/proxy-pointers.js';

const fixture = fileURLToPath(new URL('./fixtures/pointer-server.mjs', import.meta.url));
const SESSION = 'pp';
const RUNS = Number(process.env.SCRATCHPAD_POINTER_RUNS ?? 40);
let home: string;
let client: Client;
let store: Scratchpad;

beforeAll(async () => {
  const cli = builtCli();
  home = mkdtempSync(join(tmpdir(), 'scratchpad-pointer-property-'));
  const database = join(home, 'pp.db');
  ({ client } = await connectStdio(
    [
      cli,
      '--db',
      database,
      '--session',
      SESSION,
      '--no-redact',
      'proxy',
      '--threshold',
      '2000',
      '--max-reply-bytes',
      '200000',
      '--',
      process.execPath,
      fixture,
    ],
    { ...process.env, XDG_DATA_HOME: home },
  ));
  store = createScratchpad({ driver: createSqliteDriver({ path: database }) });
}, 120_000);

afterAll(async () => {
  await client?.close();
  await store?.close();
  rmSync(home, { recursive: true, force: true });
});

type Block = {
  type: string;
  text?: string;
  data?: string;
  uri?: string;
  name?: string;
  description?: string;
  mimeType?: string;
  resource?: { uri: string; mimeType?: string; text?: string; blob?: string };
};
interface Sent {
  content: Block[];
  structuredContent?: Record<string, unknown>;
}

// Strings of every width: ASCII, two- and three-byte UTF-8, and emoji (a surrogate pair).
const UNIT = fc.constantFrom('a', 'q', ' ', '\n', '0', '.', 'é', '日', '😀');
/** Lengths around the preview's 1,000-char cut and the proxy's 2,000-byte threshold. */
const sized = (lengths: number[]) =>
  fc
    .constantFrom(...lengths)
    .chain((length) => fc.string({ unit: UNIT, minLength: length, maxLength: length }));
const anyText = sized([0, 1, 40, 999, 1000, 1001, 1800, 2100, 6000]);
const shortLeaf = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), sized([0, 5, 30]));
const list = fc.constantFrom(0, 3, 100, 101, 150).chain((length) =>
  fc.array(fc.oneof(shortLeaf, fc.record({ id: fc.nat(), note: sized([10, 1200]) })), {
    minLength: length,
    maxLength: length,
  }),
);
const key = fc.constantFrom('a', 'diag', 'list', 'x/y', 't~1', 'inner');
const structured = fc.dictionary(
  key,
  fc.oneof(shortLeaf, anyText, list, fc.dictionary(key, fc.oneof(shortLeaf, anyText, list), { maxKeys: 3 })),
  { maxKeys: 4 },
);
/** Deterministic bytes (random bytes of 150 KB would make every run slow to generate). */
const bytes = (size: number, seed: number) =>
  Buffer.from(Array.from({ length: size }, (_, index) => (index * 31 + seed * 17 + (index >> 7)) & 0xff));
const media: fc.Arbitrary<Block> = fc
  .tuple(fc.constantFrom(1, 300, 150_000), fc.nat(255), fc.constantFrom('image', 'audio', 'blob', 'embedded'))
  .chain(
    ([size, seed, kind]): fc.Arbitrary<Block> =>
      kind === 'embedded'
        ? anyText.map((text) => ({
            type: 'resource',
            resource: { uri: `fixture://text/${seed}`, mimeType: 'text/plain', text },
          }))
        : fc.constant(
            kind === 'blob'
              ? {
                  type: 'resource',
                  resource: {
                    uri: `fixture://blob/${seed}`,
                    mimeType: 'application/octet-stream',
                    blob: bytes(size, seed).toString('base64'),
                  },
                }
              : kind === 'image'
                ? { type: 'image', mimeType: 'image/png', data: bytes(size, seed).toString('base64') }
                : { type: 'audio', mimeType: 'audio/wav', data: bytes(size, seed).toString('base64') },
          ),
  );
const result: fc.Arbitrary<Sent> = fc
  .record({
    texts: fc.array(anyText, { minLength: 1, maxLength: 4 }),
    others: fc.array(fc.tuple(media, fc.nat(4)), { maxLength: 2 }),
    structured: fc.option(structured, { nil: undefined }),
    /** A structured string that is one of the text blocks (as MCP servers often send). */
    echo: fc.option(fc.nat(3), { nil: undefined }),
  })
  .map(({ texts, others, structured, echo }) => {
    const content: Block[] = texts.map((text) => ({ type: 'text', text }));
    for (const [block, at] of others) content.splice(at % (content.length + 1), 0, block);
    const withEcho =
      echo === undefined ? structured : { ...(structured ?? {}), echo: texts[echo % texts.length] };
    return { content, ...(withEcho ? { structuredContent: withEcho } : {}) };
  });

/** An entry's whole content from the store the proxy writes (binary as bytes). */
async function stored(name: string): Promise<string | Buffer> {
  const read = await store.session(SESSION).read(name);
  return read.encoding === 'utf8' ? read.content : Buffer.from(read.content, 'base64');
}

const decoded = (base64: string) => Buffer.from(base64, 'base64');

/** Checks that every pointer in `got` leads to what `sent` holds there, and that nothing cut is unreachable. */
async function checkPointers(sent: Sent, got: Sent & { isError?: boolean }): Promise<number> {
  let followed = 0;
  expect(got.isError, JSON.stringify(got).slice(0, 2000)).toBeFalsy();
  const texts = sent.content.filter((block) => block.type === 'text').map((block) => block.text ?? '');
  let textsStored = false;
  const storedBytes: Buffer[] = [];
  const storedResourceTexts = new Map<string, string>();
  for (const block of got.content) {
    if (block.type !== 'resource_link' || !block.uri?.startsWith(`scratchpad://${SESSION}/`)) continue;
    const name = block.name ?? '';
    const content = await stored(name);
    const holds = block.description ?? '';
    followed++;
    if (holds.startsWith("The text of replay's result")) {
      expect(texts).toHaveLength(1);
      expect(content).toBe(texts[0]);
      textsStored = true;
    } else if (/^The \d+ text blocks of replay's result, as a JSON array of strings/.test(holds)) {
      expect(JSON.parse(String(content))).toEqual(texts);
      textsStored = true;
    } else if (holds.startsWith("The structuredContent of replay's result, as JSON")) {
      expect(JSON.parse(String(content))).toEqual(sent.structuredContent);
    } else if (/^The (image|audio|resource) of replay's result \(its bytes\)/.test(holds)) {
      storedBytes.push(Buffer.isBuffer(content) ? content : Buffer.from(content));
    } else if (holds.startsWith('The text of the embedded resource ')) {
      const uri = /^The text of the embedded resource (\S+) of/.exec(holds)?.[1] ?? '';
      storedResourceTexts.set(uri, String(content));
    } else {
      throw new Error(`A link that does not say what it holds: ${holds}`);
    }
  }
  // The text blocks: stored (checked above), or every one forwarded as sent, in order.
  const forwardedTexts = got.content.filter((block) => block.type === 'text').map((block) => block.text);
  if (!textsStored) {
    let from = 0;
    for (const text of texts) {
      const at = forwardedTexts.indexOf(text, from);
      expect(at, 'an inline text block was lost').toBeGreaterThanOrEqual(0);
      from = at + 1;
    }
  } else {
    const note = forwardedTexts.find((text) => text?.includes('text blocks ('));
    if (texts.length > 1) {
      expect(note).toContain(
        `${texts.length} text blocks (${listed(texts.map((text) => formatCount(codePointLength(text))))} chars;`,
      );
    }
  }
  // Media and embedded resources: forwarded as sent, or stored byte-exact.
  for (const block of sent.content) {
    if (block.type === 'text') continue;
    const passed = got.content.some((other) => isDeepStrictEqual(other, block));
    if (passed) continue;
    if (block.type === 'image' || block.type === 'audio') {
      expect(storedBytes.some((bytes) => bytes.equals(decoded(block.data ?? '')))).toBe(true);
    } else if (block.resource?.blob !== undefined) {
      expect(storedBytes.some((bytes) => bytes.equals(decoded(block.resource?.blob ?? '')))).toBe(true);
    } else {
      expect(storedResourceTexts.get(block.resource?.uri ?? '')).toBe(block.resource?.text);
    }
  }
  if (sent.structuredContent === undefined) {
    expect(got.structuredContent).toBeUndefined();
    return followed;
  }
  const notes = forwardedTexts.join('\n');
  const visit = async (original: unknown, shown: unknown, path: Array<string | number>): Promise<void> => {
    if (isDeepStrictEqual(original, shown)) return;
    const reach = async (pointer: Pointer | undefined) => {
      expect(
        pointer,
        `no pointer at ${jsonPointer(path)}: ${JSON.stringify(shown).slice(0, 300)}`,
      ).toBeDefined();
      followed++;
      expect(await follow(stored, pointer as Pointer)).toEqual(original);
    };
    if (typeof original === 'string' && typeof shown === 'string') {
      await reach(stringPointer(shown));
      const chars = Array.from(original);
      expect(
        shown.startsWith(
          `${chars.slice(0, 400).join('')}\n[… ${formatCount(chars.length - 800)} chars omitted;`,
        ),
      ).toBe(true);
      expect(shown.endsWith(`…]\n${chars.slice(-400).join('')}`)).toBe(true);
      return;
    }
    if (Array.isArray(original) && Array.isArray(shown)) {
      let items = shown;
      if (shown.length !== original.length) {
        const marker = arrayMarker(shown.at(-1));
        if (marker) {
          items = shown.slice(0, -1);
          expect(shown.at(-1)).toMatch(
            new RegExp(
              `^\\[… ${formatCount(original.length - items.length)} of ${formatCount(original.length)} items omitted;`,
            ),
          );
          await reach(marker);
        } else {
          const pointer = JSON.stringify(jsonPointer(path));
          const named = new RegExp(
            `${escapeRegExp(pointer)} keeps ${items.length} of ${original.length} items; the whole array is at ${escapeRegExp(pointer)} in the JSON of the scratchpad entry "([^"]+)"`,
          ).exec(notes);
          await reach(named ? { entry: named[1] ?? '', at: jsonPointer(path) } : undefined);
        }
      }
      for (const [index, item] of items.entries()) await visit(original[index], item, [...path, index]);
      return;
    }
    if (original && shown && typeof original === 'object' && typeof shown === 'object') {
      expect(Object.keys(shown)).toEqual(Object.keys(original));
      for (const [name, value] of Object.entries(original))
        await visit(value, (shown as Record<string, unknown>)[name], [...path, name]);
      return;
    }
    throw new Error(`${jsonPointer(path)} changed without a pointer: ${JSON.stringify(shown).slice(0, 300)}`);
  };
  await visit(sent.structuredContent, got.structuredContent, []);
  return followed;
}

function listed(items: string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('the proxy: every pointer leads to exactly what the upstream sent (fast-check)', () => {
  it('follows every link and note of generated results', async () => {
    let pointers = 0;
    let saves = 0;
    await fc.assert(
      fc.asyncProperty(result, fc.boolean(), async (sent, save) => {
        // With `scratchpad: NAME` (the explicit save) too: what it saves and what it forwards.
        const saveAs = save ? { scratchpad: `saved-${++saves}` } : {};
        const got = (await client.callTool({
          name: 'replay',
          arguments: { result: sent, ...saveAs },
        })) as Sent & {
          isError?: boolean;
        };
        pointers += await checkPointers(sent, got);
      }),
      { numRuns: RUNS, endOnFailure: process.env.SCRATCHPAD_POINTER_SHRINK !== '1' },
    );
    expect(pointers).toBeGreaterThan(RUNS / 2);
    console.log(`followed ${pointers} pointers over ${RUNS} generated results`);
  }, 600_000);
});
