import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Entry } from '../core/entry.js';
import type { JsonObject } from '../core/json.js';
import { createScratchpad, type Scratchpad, type SessionScratchpad } from '../service/scratchpad.js';
import { createMemoryDriver } from '../stores/memory/index.js';
import { createPostgresDriver } from '../stores/postgres/postgres-driver.js';
import { createSqliteDriver } from '../stores/sqlite/index.js';
import { wrapTools } from '../tools/wrap-tools.js';
import { compactMessages } from './compaction/compact-messages.js';
import { type MessageShape, rebuildMaskedResult, type StoredResultForm } from './compaction/stored-result.js';
import { createOffloadPolicy, type ObservationFormat } from './offload/offload-policy.js';
import { createOffloader } from './offload/offloader.js';
import { RESULT_FIELDS_KEY } from './offload/result-fields.js';

/**
 * Every pointer the offloader and `compactMessages` produce is followed: the entry the observation or stub names
 * is read back through the session, and what it holds (with what the note shows whole) must be the original tool
 * output, byte for byte, on the memory, SQLite and PostgreSQL stores.
 */

const url = process.env.SCRATCHPAD_TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/test';
const schema = `scratchpad_test_${randomBytes(6).toString('hex')}`;
let directory: string;
const stores: [string, Scratchpad][] = [];

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'pointers-'));
  stores.push(['memory', createScratchpad({ driver: createMemoryDriver() })]);
  stores.push([
    'sqlite',
    createScratchpad({ driver: createSqliteDriver({ path: join(directory, 'store.db') }) }),
  ]);
  stores.push([
    'postgres',
    createScratchpad({ driver: await createPostgresDriver({ connectionString: url, schema }) }),
  ]);
}, 120_000);

afterAll(async () => {
  // Each kind of pointer was followed at least once (the generators reach every form).
  expect([...followed.keys()].sort()).toEqual([
    'masked:ai-sdk:json',
    'masked:ai-sdk:text',
    'masked:ai-sdk:text-part',
    'masked:anthropic:json',
    'masked:anthropic:text',
    'masked:anthropic:text-part',
    'masked:openai:json',
    'masked:openai:text',
    'masked:openai:text-part',
    'offload:content',
    'offload:json',
    'offload:text',
  ]);
  for (const [, scratchpad] of stores) await scratchpad.close();
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
  await rm(directory, { recursive: true, force: true });
});

let sessions = 0;
function freshSession(scratchpad: Scratchpad): SessionScratchpad {
  sessions++;
  return scratchpad.session(`pointers-${sessions}`);
}

async function readWhole(session: SessionScratchpad, entry: Pick<Entry, 'id'>): Promise<string> {
  const read = await session.read({ id: entry.id }, { type: 'full' });
  expect(read.complete).toBe(true);
  return read.content;
}

/** Lines as the store counts them: a last line without a newline counts. */
function lineCount(text: string): number {
  if (text.length === 0) return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

// Text of mixed widths and line ends, a few lines to a few hundred.
const line = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.constantFrom('', '\r', 'ERROR failed: exit 2', 'café ✓ 🙂 エラー', '  "quoted": [1, 2]'),
);
const shortText = fc
  .tuple(fc.array(line, { minLength: 1, maxLength: 120 }), fc.boolean())
  .map(([lines, trailing]) => lines.join('\n') + (trailing ? '\n' : ''));
// Repeated, so that sizes reach past a stub's (about 250 chars) and an offload threshold as often as not.
const text = fc.oneof(
  shortText,
  fc.tuple(shortText, fc.integer({ min: 2, max: 40 })).map(([piece, times]) => piece.repeat(times)),
);

// ── The offloader ──────────────────────────────────────────────────────────────────────────────────────────────

const key = fc.oneof(
  fc.constantFrom('id', 'name', 'items', 'rows', 'ok', 'content'),
  fc.string({ maxLength: 8 }),
);
const json = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.oneof(
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
    ),
    text,
    fc.array(tie('value'), { maxLength: 40 }),
    fc.dictionary(key, tie('value'), { maxKeys: 8 }),
  ),
})).value;

const toolResult = fc.oneof(
  text,
  json,
  // Multi-part, as MCP and many tool layers return it.
  fc.record({
    content: fc.array(
      fc.oneof(
        fc.record({ type: fc.constant('text'), text }),
        fc.record({ type: fc.constant('image'), data: fc.base64String({ maxLength: 400 }) }),
      ),
      { maxLength: 4 },
    ),
    structuredContent: fc.option(json, { nil: undefined }),
  }),
  // {ok, content, metadata} with fields beside it, short and long (around the 1,000 chars shown whole).
  fc.record(
    {
      ok: fc.boolean(),
      content: text,
      metadata: fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 40 }), { maxKeys: 4 }),
      error: fc.string({ maxLength: 1200 }),
      exitCode: fc.integer({ min: 0, max: 255 }),
    },
    { requiredKeys: ['ok', 'content'] },
  ),
);

/** The entry's text and metadata, with what the note shows whole, must be the result. */
/** How many pointers of each kind the properties followed (so that none passes by following nothing). */
const followed = new Map<string, number>();
function tally(kind: string): void {
  followed.set(kind, (followed.get(kind) ?? 0) + 1);
}

async function expectPointerHoldsResult(
  session: SessionScratchpad,
  result: unknown,
  outcome: { entry: Entry; storedField: string | null; text: string },
): Promise<void> {
  const stored = await readWhole(session, outcome.entry);
  if (typeof result === 'string') {
    tally('offload:text');
    expect(Buffer.from(stored).equals(Buffer.from(result))).toBe(true);
    return;
  }
  if (outcome.storedField === null) {
    tally('offload:json');
    // Any other value: stored as its JSON (two-space indent), which parses to the value.
    expect(stored).toBe(JSON.stringify(result, null, 2));
    expect(JSON.stringify(JSON.parse(stored))).toBe(JSON.stringify(result));
    return;
  }
  // {ok, content, metadata, …}: the content byte for byte; every other field in the entry's metadata.
  tally('offload:content');
  const { content, metadata, ...fields } = result as { content: string; metadata?: JsonObject };
  expect(Buffer.from(stored).equals(Buffer.from(content))).toBe(true);
  const { [RESULT_FIELDS_KEY]: keptFields, ...keptMetadata } = outcome.entry.metadata;
  expect(keptMetadata).toEqual(metadata ?? {});
  const onlySuccess = Object.keys(fields).length === 1 && (fields as { ok?: unknown }).ok === true;
  expect(keptFields ?? (onlySuccess ? fields : {})).toEqual(fields);
}

describe('every pointer the offloader produces holds what it cut', () => {
  for (const format of ['default', 'named', 'metnos'] as ObservationFormat[]) {
    it(`${format} format: structured, multi-part and {ok, content} results, around the threshold`, async () => {
      for (const [, scratchpad] of stores) {
        await fc.assert(
          fc.asyncProperty(toolResult, fc.integer({ min: 64, max: 4000 }), async (result, threshold) => {
            const session = freshSession(scratchpad);
            const offloader = createOffloader({
              session,
              policy: createOffloadPolicy({ format, threshold, measure: 'bytes', minSavings: 0 }),
            });
            const outcome = await offloader.process({ tool: 'api', result });
            if (!outcome.offloaded) return;
            // The pointer the model is given names this entry.
            if (format === 'metnos') expect(outcome.text).toContain(`"scratchpad_id":"${outcome.entry.id}"`);
            else expect(outcome.text).toContain(outcome.entry.name);
            await expectPointerHoldsResult(session, result, outcome);
          }),
          { numRuns: 40 },
        );
      }
    });
  }

  it('wrapTools: the entry a wrapped tool names holds its result', async () => {
    for (const [, scratchpad] of stores) {
      await fc.assert(
        fc.asyncProperty(toolResult, async (result) => {
          const session = freshSession(scratchpad);
          const [tool] = wrapTools(
            [{ name: 'api', inputSchema: { type: 'object', properties: {} }, execute: () => result }],
            { session, policy: { threshold: 512, measure: 'bytes' } },
          );
          const answer = await tool?.execute({});
          if (!answer?.entry) return;
          expect(answer.text).toContain(answer.entry.name);
          const entry = await session.get({ id: answer.entry.id });
          // wrapTools does not say which field it stored: the entry holds `content` itself, or the whole result.
          const content = (result as { content?: unknown } | null)?.content;
          const storedField = (await readWhole(session, entry)) === content ? 'content' : null;
          await expectPointerHoldsResult(session, result, { entry, storedField, text: answer.text });
        }),
        { numRuns: 40 },
      );
    }
  });
});

// ── compactMessages ────────────────────────────────────────────────────────────────────────────────────────────

const textPart = fc.record({ type: fc.constant('text' as const), text });
const extraPart = fc.oneof(
  fc.record({
    type: fc.constant('text' as const),
    text,
    cache_control: fc.constant({ type: 'ephemeral' as const }),
  }),
  fc.record({
    type: fc.constant('image' as const),
    source: fc.record({
      type: fc.constant('base64' as const),
      media_type: fc.constant('image/png' as const),
      data: fc.base64String({ maxLength: 400 }),
    }),
  }),
);
const openAIContent = fc.oneof(text, fc.array(textPart, { minLength: 1, maxLength: 4 }));
const anthropicContent = fc.oneof(
  text,
  fc.array(fc.oneof(textPart, extraPart), { minLength: 1, maxLength: 4 }),
);
const aiSdkOutput = fc.oneof(
  fc.record({ type: fc.constantFrom('text' as const, 'error-text' as const), value: text }),
  fc.record({
    type: fc.constant('text' as const),
    value: text,
    providerOptions: fc.constant({ anthropic: { cacheControl: { type: 'ephemeral' } } }),
  }),
  fc.record({ type: fc.constantFrom('json' as const, 'error-json' as const), value: json }),
  fc.record({
    type: fc.constant('content' as const),
    value: fc.array(textPart, { minLength: 1, maxLength: 3 }),
  }),
);

interface Sent {
  shape: MessageShape;
  /** The content (OpenAI, Anthropic) or output (AI SDK) as sent. */
  original: unknown;
}

/** A conversation of one shape with these results, each answering its own call; the sent results by call id. */
function conversation(
  shape: MessageShape,
  results: unknown[],
): { messages: unknown[]; sent: Map<string, Sent> } {
  const sent = new Map<string, Sent>();
  const messages: unknown[] = [{ role: 'user', content: 'Go.' }];
  results.forEach((original, index) => {
    const id = `call_${index}`;
    sent.set(id, { shape, original });
    if (shape === 'openai') {
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: [{ id, type: 'function', function: { name: 'bash', arguments: '{}' } }],
      });
      messages.push({ role: 'tool', tool_call_id: id, content: original });
    } else if (shape === 'anthropic') {
      messages.push({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'bash', input: {} }] });
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: original }] });
    } else {
      messages.push({
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: id, toolName: 'bash', input: {} }],
      });
      messages.push({
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: id, toolName: 'bash', output: original }],
      });
    }
  });
  messages.push({ role: 'user', content: 'And now?' });
  return { messages, sent };
}

const conversations = fc.oneof(
  fc.tuple(fc.constant('openai' as const), fc.array(openAIContent, { minLength: 2, maxLength: 5 })),
  fc.tuple(fc.constant('anthropic' as const), fc.array(anthropicContent, { minLength: 2, maxLength: 5 })),
  fc.tuple(fc.constant('ai-sdk' as const), fc.array(aiSdkOutput, { minLength: 2, maxLength: 5 })),
);

describe('every stub compactMessages leaves names an entry the original rebuilds from', () => {
  it('OpenAI, Anthropic and AI SDK results of one part or several, text or JSON, around the stub size', async () => {
    for (const [, scratchpad] of stores) {
      await fc.assert(
        fc.asyncProperty(conversations, async ([shape, results]) => {
          const session = freshSession(scratchpad);
          const { messages, sent } = conversation(shape, results);
          const compacted = await compactMessages(messages, { session, keepRecent: 1, clearAtLeast: 0 });
          for (const masked of compacted.masked) {
            const stub = JSON.stringify(compacted.messages[masked.messageIndex]);
            const name = /stored whole as (\S+) /.exec(stub)?.[1];
            expect(name).toBe(masked.entry.name);
            const entry = await session.get(name as string);
            const stored = await readWhole(session, entry);
            const form = entry.metadata.storedAs as StoredResultForm;
            const original = sent.get(masked.callId) as Sent;
            const isError =
              shape === 'ai-sdk' && (original.original as { type: string }).type === 'error-text';
            const rebuilt = rebuildMaskedResult(shape, { text: stored, form }, isError);
            expect(JSON.stringify(rebuilt)).toBe(JSON.stringify(original.original));
            // What the stub says of the entry is true of the bytes it holds.
            const sizes = /([\d,]+) chars, ([\d,]+) lines/.exec(stub);
            expect(Number(sizes?.[1]?.replaceAll(',', ''))).toBe([...stored].length);
            expect(Number(sizes?.[2]?.replaceAll(',', ''))).toBe(lineCount(stored));
            expect(stub.includes('the JSON of its content')).toBe(form === 'json');
            tally(`masked:${shape}:${form}`);
          }
        }),
        { numRuns: 60 },
      );
    }
  });
});
