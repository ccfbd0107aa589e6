import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_SECRETS } from '../src/core/redaction/secret-corpus.fixture.js';
import { builtCli } from './helpers/built-cli.js';
import { connectStdio } from './helpers/cli-client.js';

const hostile = fileURLToPath(new URL('./fixtures/hostile-upstream.mjs', import.meta.url));
/** Property runs, printed so the closing note can quote them. */
const RUNS = Number(process.env.SCRATCHPAD_REDACTION_RUNS ?? 150);

let home: string;
let client: Client;
const logged: unknown[] = [];
let toolsChanged = 0;

beforeAll(async () => {
  const cli = builtCli();
  home = mkdtempSync(join(tmpdir(), 'scratchpad-hostile-'));
  ({ client } = await connectStdio(
    [cli, '--db', join(home, 'hostile.db'), '--session', 'proxied', 'proxy', '--', process.execPath, hostile],
    { ...process.env, XDG_DATA_HOME: home },
  ));
  client.setNotificationHandler(LoggingMessageNotificationSchema, async (notification) => {
    logged.push(notification.params);
  });
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    toolsChanged++;
  });
  await client.setLoggingLevel('debug');
}, 120_000);

afterAll(async () => {
  await client?.close();
  rmSync(home, { recursive: true, force: true });
});

/** Secrets the redactor catches on their own line (the proxy's job is to run it everywhere, not to widen it). */
const secrets = CORPUS_SECRETS.filter(
  (item) => !item.label.includes('cut') && !item.text.includes('\n') && item.text.length < 400,
);

/** Every 12-character piece of a secret: none may reach the client. */
function leakedPieces(received: string, secret: string): string[] {
  const pieces: string[] = [];
  for (let index = 0; index + 12 <= secret.length; index += 6) pieces.push(secret.slice(index, index + 12));
  return pieces.filter((piece) => received.includes(piece));
}

async function plant(place: string, text: string, depth = 0): Promise<void> {
  const before = toolsChanged;
  await client.callTool({ name: 'plant', arguments: { place, text, depth } });
  if (place.startsWith('tool.')) {
    for (let waited = 0; toolsChanged === before && waited < 200; waited++)
      await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function allTools() {
  const tools = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/** What the client receives for a place: the answer of the request that carries it, and any notification. */
async function observe(place: string): Promise<string> {
  logged.length = 0;
  const progress: unknown[] = [];
  const group = place.split('.')[0];
  let answer: unknown;
  try {
    if (group === 'tool') answer = await allTools();
    else if (group === 'resource') answer = await client.listResources();
    else if (group === 'template') answer = await client.listResourceTemplates();
    else if (group === 'read') answer = await client.readResource({ uri: 'hostile://doc' });
    else if (place.startsWith('prompt.get')) answer = await client.getPrompt({ name: 'hostile_prompt' });
    else if (group === 'prompt') answer = await client.listPrompts();
    else if (group === 'completion')
      answer = await client.complete({
        ref: { type: 'ref/prompt', name: 'hostile_prompt' },
        argument: { name: 'who', value: '' },
      });
    else
      answer = await client.callTool({ name: 'leak', arguments: {} }, undefined, {
        onprogress: (update) => progress.push(update),
      });
  } catch (error) {
    answer = { error: String(error), data: (error as { data?: unknown }).data };
  }
  // A logging notification may arrive just after the answer.
  for (let waited = 0; place === 'notification.log' && logged.length === 0 && waited < 100; waited++)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return JSON.stringify({ answer, logged, progress });
}

const TEXT_PLACES = [
  'result.text',
  'result.isError',
  'embedded.text',
  'read.text',
  'prompt.get.text',
  'prompt.get.resource',
  'error.protocol',
  'error.thrown',
  'notification.log',
  'notification.progress',
];
const DEEP_PLACES = [
  'structured.value',
  'structured.key',
  'result._meta',
  'link._meta',
  'embedded._meta',
  'read._meta',
];
const NAME_PLACES = [
  'link.uri',
  'link.name',
  'link.title',
  'link.description',
  'embedded.uri',
  'tool.title',
  'tool.description',
  'tool.inputSchema',
  'tool.name',
  'resource.uri',
  'resource.name',
  'resource.title',
  'resource.description',
  'template.name',
  'template.description',
  'prompt.name',
  'prompt.title',
  'prompt.description',
  'prompt.argument',
  'prompt.get.description',
  'completion.value',
];

describe('scratchpad proxy redacts every string a hostile upstream sends', () => {
  it('passes plain answers through (the fixture answers every request)', async () => {
    await plant('none', '');
    const answer = await observe('result.text');
    expect(answer).toContain('https://example.com/doc');
    expect((await client.listPrompts()).prompts[0]?.name).toBe('hostile_prompt');
  });

  it('never lets a secret planted at any offset and depth, in any place, reach the client', async () => {
    let runs = 0;
    const counted = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({
            place: fc.constantFrom(...TEXT_PLACES),
            offset: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 60_000, max: 140_000 })),
            depth: fc.constant(0),
          }),
          fc.record({
            place: fc.constantFrom(...DEEP_PLACES),
            offset: fc.integer({ min: 0, max: 2_000 }),
            depth: fc.oneof(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 60, max: 400 })),
          }),
          fc.record({
            place: fc.constantFrom(...NAME_PLACES),
            offset: fc.integer({ min: 0, max: 40 }),
            depth: fc.constant(0),
          }),
        ),
        fc.constantFrom(...secrets),
        async ({ place, offset, depth }, item) => {
          runs++;
          counted.set(place, (counted.get(place) ?? 0) + 1);
          const text = `${'x'.repeat(offset)}\n${item.text}\n${'y'.repeat(offset % 7)}`;
          await plant(place, text, depth);
          const received = await observe(place);
          expect(leakedPieces(received, item.secret), `${place} (${item.label})`).toEqual([]);
          // Short texts are never offloaded: the planted string arrived, redacted (nothing was dropped to pass).
          // (A progress notification read with the answer is dropped by the SDK client: typescript-sdk#2580.)
          if (offset <= 300 && place !== 'notification.progress')
            expect(received, place).toContain('[REDACTED:');
        },
      ),
      {
        numRuns: RUNS,
        examples: [
          [{ place: 'structured.value', offset: 10, depth: 100 }, secrets[0] ?? CORPUS_SECRETS[0]],
          [{ place: 'link.uri', offset: 0, depth: 0 }, secrets[0] ?? CORPUS_SECRETS[0]],
          // Found by this test: a token after an escaped line end in the JSON of an offloaded structured result
          // (its preview suggested a search for "ngho_…", which no pattern knew as a token).
          [
            { place: 'structured.value', offset: 956, depth: 0 },
            secrets.find((item) => item.label === 'GitHub OAuth token') ?? CORPUS_SECRETS[0],
          ],
          // Found by this test: a structured value with nothing to cut, stored anyway, whose preview suggested a
          // search for the token without its prefix.
          // Found by this test: the preview's suggested regex read was the token's body without its `glpat-` prefix
          // (its reads were not redacted, and the bare body matches no pattern).
          [
            { place: 'result._meta', offset: 724, depth: 0 },
            secrets.find((item) => item.label === 'GitLab personal token') ?? CORPUS_SECRETS[0],
          ],
          // Found by CI: a JWT in a result's _meta 60 levels deep, at offset 1,509.
          [
            { place: 'result._meta', offset: 1509, depth: 60 },
            secrets.find((item) => item.label === 'JWT') ?? CORPUS_SECRETS[0],
          ],
          [
            { place: 'structured.value', offset: 690, depth: 1 },
            secrets.find((item) => item.label === 'GitLab personal token') ?? CORPUS_SECRETS[0],
          ],
        ],
      },
    );
    console.log(
      `proxy redaction: ${runs} property runs over ${counted.size} places, no secret out (${[...counted]
        .map(([place, count]) => `${place} ${count}`)
        .join(', ')})`,
    );
  }, 900_000);

  it('redacts every place the issue named, one by one', async () => {
    const url = CORPUS_SECRETS.find((item) => item.label === 'URL with password');
    if (!url) throw new Error('no URL secret');
    for (const place of [...TEXT_PLACES, ...DEEP_PLACES, ...NAME_PLACES]) {
      await plant(place, url.text, 100);
      const received = await observe(place);
      expect(leakedPieces(received, url.secret), place).toEqual([]);
      // The planted string did arrive, redacted: nothing was dropped to pass.
      if (place !== 'notification.progress') expect(received, place).toContain('[REDACTED:url-credentials]');
    }
  }, 300_000);

  it('serves a tool whose upstream name holds a secret under its redacted name, and calls it', async () => {
    const token = CORPUS_SECRETS.find((item) => item.label === 'GitHub classic token');
    if (!token) throw new Error('no token');
    await plant('tool.name', token.text);
    const served = (await allTools()).find((tool) => tool.name.includes('[REDACTED:github-token]'));
    expect(served).toBeDefined();
    const result = await client.callTool({ name: served?.name ?? '', arguments: {} });
    expect(JSON.stringify(result.content)).toContain('the tool with a secret name ran');
  });

  it.each([64_536, 65_336, 130_572])(
    'resources/read of an entry: a one-line service-account JSON with %i characters of padding shows no key',
    async (padding) => {
      const account = CORPUS_SECRETS.find((item) => item.label === 'GCP service account JSON');
      if (!account) throw new Error('no service account');
      const parsed = JSON.parse(account.text) as { private_key: string };
      const name = `account-${padding}.json`;
      await client.callTool({
        name: 'scratchpad_write',
        arguments: { name, content: JSON.stringify({ padding: 'x'.repeat(padding), ...parsed }) },
      });
      const read = await client.readResource({ uri: `scratchpad://proxied/${name}` });
      const text = (read.contents[0] as { text: string }).text;
      expect(text).toContain('[REDACTED:private-key]');
      for (const line of parsed.private_key.split('\n').filter((part) => !part.startsWith('-----')))
        expect(leakedPieces(text, line)).toEqual([]);
    },
  );

  it('reads a resource and gets a prompt by the redacted URI and name it listed', async () => {
    const url = CORPUS_SECRETS.find((item) => item.label === 'URL with password');
    const token = CORPUS_SECRETS.find((item) => item.label === 'GitHub classic token');
    if (!url || !token) throw new Error('no secrets');
    const uri = /\S+:\/\/\S+/.exec(url.text)?.[0] ?? '';
    await plant('resource.uri', uri);
    const listed = (await client.listResources()).resources.find((item) => item.uri.includes('[REDACTED:'));
    expect(listed?.uri).toBeDefined();
    const read = await client.readResource({ uri: listed?.uri ?? '' });
    expect((read.contents[0] as { text: string }).text).toBe('the planted resource');
    expect(leakedPieces(JSON.stringify(read), url.secret)).toEqual([]);

    await plant('prompt.name', token.text);
    const prompt = (await client.listPrompts()).prompts.find((item) => item.name.includes('[REDACTED:'));
    expect(prompt).toBeDefined();
    const got = await client.getPrompt({ name: prompt?.name ?? '' });
    expect(got.description).toBe('the planted prompt');
  });

  it('keeps valid base64 image data byte for byte', async () => {
    await plant('none', '');
    const result = await client.callTool({ name: 'leak', arguments: {} });
    const image = (result.content as Array<{ type: string; data?: string }>).find(
      (block) => block.type === 'image',
    );
    expect(image?.data).toBe(Buffer.from('not really a png').toString('base64'));
  });
});
