import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendTurnLog } from '../../packages/runtime/src/planner/turn-log.js';
import type { TurnLogRecord } from '../../packages/runtime/src/planner/turn-record.js';
import type { Entry } from '../core/entry.js';
import { createScratchpad, type Scratchpad } from '../service/scratchpad.js';
import { openStore } from '../stores/open-store.js';
import { MAX_REPLY_BYTES } from './json-reply.js';
import { serveUi, type UiServer } from './serve-ui.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: replies are checked field by field
  json: any;
}

/** One request over real HTTP, with any headers (fetch cannot set Host). */
function call(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers = {
      ...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }),
      ...options.headers,
    };
    const req = request(url, { method: options.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', (error) => reject(new Error(`${options.method ?? 'GET'} ${url}: ${error.message}`)));
    req.end(options.body);
  });
}

let home: string;
let scratchpad: Scratchpad;
let server: UiServer;
let base: string;
let log: Entry;
let blob: Entry;
let wide: Entry;
const turnsDir = () => join(home, 'turns');

function turnRecord(overrides: Partial<TurnLogRecord>): TurnLogRecord {
  return {
    turn_id: 'turn-1',
    session: 'build',
    ts_start: 1_700_000_000,
    ts_end: 1_700_000_002,
    user_query: 'why did the build fail?',
    mode: 'local',
    model: { provider: 'ollama', modelId: 'qwen' },
    candidates: ['bash'],
    k: { value: 1, reason: 'all' },
    discarded: [],
    steps: [],
    final_message: 'a missing semicolon',
    final_kind: 'answer',
    model_calls: [],
    ...overrides,
  };
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'scratchpad-ui-'));
  scratchpad = createScratchpad({ driver: await openStore(`sqlite:${join(home, 'store.db')}`) });
  const lines = Array.from(
    { length: 5000 },
    (_, index) => `line ${index + 1}${index === 4199 ? ' FATAL: disk full' : ''}`,
  );
  log = (
    await scratchpad.write('build', 'build-log', `${lines.join('\n')}\n`, {
      source: 'bash',
      turn: 'turn-1',
      step: 1,
      metadata: { command: 'make', note: 'x'.repeat(5000) },
    })
  ).entry;
  blob = (await scratchpad.write('build', 'blob', Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255])))
    .entry;
  wide = (await scratchpad.write('other', 'wide', `short\n${'w'.repeat(300_000)}\nafter\n`)).entry;
  mkdirSync(turnsDir());
  await appendTurnLog(
    turnsDir(),
    turnRecord({
      steps: [
        {
          step: 1,
          tool: 'bash',
          llm: { inputTokens: 100, outputTokens: 20, latencyMs: 300 },
          rawArgs: { command: 'make' },
          resolvedArgs: { command: 'make' },
          outcome: 'executed',
          vaglio: {
            approved: true,
            reason: 'ok',
            score: 0.9,
            blocked_by: null,
            judge_kind: 'rules',
            ts: '2023-11-14T22:13:20Z',
          },
          sandbox: 'bubblewrap',
          result: {
            ok: true,
            offloaded: true,
            entry: log.id,
            name: log.name,
            bytes: log.bytes,
            shownChars: 120,
            observation: 'Stored as build-log (5,000 lines). Preview: line 1 … FATAL',
          },
        },
      ],
    }),
  );
  server = await serveUi({
    scratchpad,
    turnLogDir: turnsDir(),
    address: '127.0.0.1:0',
    log: () => undefined,
  });
  base = `http://127.0.0.1:${server.port}`;
});

afterAll(async () => {
  await server?.close();
  await scratchpad?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('scratchpad ui HTTP API', () => {
  it('lists sessions and entries (metadata left out) and finds entries by full-text search', async () => {
    const sessions = await call(`${base}/api/sessions`);
    expect(sessions.status).toBe(200);
    expect(sessions.json.sessions.map((s: { id: string }) => s.id).sort()).toEqual(['build', 'other']);
    const entries = await call(`${base}/api/sessions/build/entries?orderBy=createdAt`);
    expect(entries.json.entries.map((e: Entry) => e.name)).toEqual(['build-log', 'blob']);
    expect(entries.json.entries[0]).toMatchObject({
      source: 'bash',
      turn: 'turn-1',
      step: 1,
      metadataKeys: 2,
    });
    expect(entries.json.entries[0].metadata).toBeUndefined();
    expect(entries.json.nextCursor).toBeUndefined();
    const first = await call(`${base}/api/sessions/build/entries?orderBy=createdAt&limit=1`);
    expect(first.json).toMatchObject({ entries: [{ name: 'build-log' }], truncated: true });
    const rest = await call(
      `${base}/api/sessions/build/entries?limit=1&cursor=${encodeURIComponent(first.json.nextCursor)}`,
    );
    expect(rest.json.entries.map((e: Entry) => e.name)).toEqual(['blob']);
    expect(rest.json.nextCursor).toBeUndefined();
    const foreign = await call(`${base}/api/sessions/build/entries?cursor=build-log`);
    expect(foreign.status).toBe(400);
    expect(foreign.json.error.code).toBe('INVALID_ARGUMENT');
    const detail = await call(`${base}/api/sessions/build/entries/${log.id}`);
    expect(detail.json.entry.metadata.command).toBe('make');
    expect(detail.json.entry.metadata.note.length).toBeLessThan(1100);
    const search = await call(`${base}/api/search?q=FATAL`);
    expect(search.json.hits[0].entry.id).toBe(log.id);
    expect(search.json.hits[0].snippet).toContain('FATAL');
    expect((await call(`${base}/api/search?q=FATAL&session=other`)).json.hits).toEqual([]);
  });

  it('pages lines, clips a line too long for a page, slices chars, shows binary as hex, greps', async () => {
    const page = await call(`${base}/api/sessions/build/entries/${log.id}/lines?start=4199&count=3`);
    expect(page.json).toMatchObject({ total: 5000, start: 4199 });
    expect(page.json.lines).toEqual([
      { line: 4199, text: 'line 4199' },
      { line: 4200, text: 'line 4200 FATAL: disk full' },
      { line: 4201, text: 'line 4201' },
    ]);
    const end = await call(`${base}/api/sessions/build/entries/${log.id}/lines?start=4999&count=50`);
    expect(end.json.lines.map((l: { line: number }) => l.line)).toEqual([4999, 5000]);
    const wideLines = await call(`${base}/api/sessions/other/entries/${wide.id}/lines?start=1&count=3`);
    expect(wideLines.json.lines[0]).toEqual({ line: 1, text: 'short' });
    expect(wideLines.json.lines[1]).toMatchObject({ line: 2, clipped: true, charStart: 6 });
    expect(wideLines.json.lines[1].text).toBe('w'.repeat(1024));
    expect(wideLines.json.lines[2]).toEqual({ line: 3, text: 'after' });
    const chars = await call(`${base}/api/sessions/other/entries/${wide.id}/chars?offset=3&limit=5`);
    expect(chars.json.content).toBe('rt\nww');
    const hex = await call(`${base}/api/sessions/build/entries/${blob.id}/bytes?offset=2&limit=4`);
    expect(hex.json).toMatchObject({ offset: 2, hex: '02fafbfc', total: 9 });
    const grep = await call(`${base}/api/sessions/build/entries/${log.id}/grep?pattern=fatal&ignoreCase=1`);
    expect(grep.json).toMatchObject({ total: 1, complete: true });
    expect(grep.json.matches[0]).toMatchObject({ line: 4200 });
  });

  it('answers bad input with a typed JSON error and a status', async () => {
    const cases: Array<[string, number, string]> = [
      [`/api/sessions/build/entries/${log.id}/lines?start=0`, 400, 'INVALID_ARGUMENT'],
      [`/api/sessions/build/entries/${log.id}/lines?count=abc`, 400, 'INVALID_ARGUMENT'],
      [`/api/sessions/build/entries/${blob.id}/lines`, 400, 'NOT_TEXT'],
      [`/api/sessions/build/entries/0123456789abcdef`, 404, 'ENTRY_NOT_FOUND'],
      [`/api/sessions/build/entries/${log.id}/grep?pattern=(`, 400, 'INVALID_REGEX'],
      [`/api/sessions/build/entries/${log.id}/chars?limit=99999999`, 400, 'INVALID_ARGUMENT'],
      ['/api/search', 400, 'INVALID_ARGUMENT'],
      ['/api/nothing', 404, 'NOT_FOUND'],
      ['/api/turns/missing', 400, 'INVALID_ARGUMENT'],
    ];
    for (const [path, status, code] of cases) {
      const reply = await call(`${base}${path}`);
      expect([path, reply.status, reply.json?.error?.code]).toEqual([path, status, code]);
      expect(reply.json.error.message.length).toBeGreaterThan(0);
    }
  });

  it('pins and deletes only with "confirm": true, a JSON body and the version looked at', async () => {
    const entry = (await scratchpad.write('scratch', 'doomed', 'bye')).entry;
    const url = `${base}/api/sessions/scratch/entries/${entry.id}`;
    const json = { 'content-type': 'application/json' };
    expect(
      (await call(`${url}/pin`, { method: 'POST', headers: json, body: '{"pinned":true}' })).status,
    ).toBe(400);
    expect(
      (await call(`${url}/pin`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }))
        .status,
    ).toBe(415);
    expect((await call(`${url}/pin`, { method: 'POST', headers: json, body: 'not json' })).status).toBe(400);
    expect((await call(`${url}/pin`, { method: 'GET' })).status).toBe(405);
    const stale = await call(`${url}/pin`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ pinned: true, confirm: true, ifVersion: 7 }),
    });
    expect([stale.status, stale.json.error.code]).toEqual([409, 'VERSION_CONFLICT']);
    const pinned = await call(`${url}/pin`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ pinned: true, confirm: true, ifVersion: 1 }),
    });
    expect(pinned.json.entry).toMatchObject({ pinned: true, version: 2 });
    expect((await call(url, { method: 'DELETE', headers: json, body: '{}' })).status).toBe(400);
    expect((await scratchpad.find('scratch', { id: entry.id }))?.pinned).toBe(true);
    const deleted = await call(url, {
      method: 'DELETE',
      headers: json,
      body: '{"confirm":true,"ifVersion":2}',
    });
    expect(deleted.json.deleted.name).toBe('doomed');
    expect(await scratchpad.find('scratch', { id: entry.id })).toBeUndefined();
  });

  it('reads the turn log: turns, one turn, the context picture, and what an entry step showed', async () => {
    const turns = await call(`${base}/api/turns?session=build`);
    expect(turns.json.turns).toHaveLength(1);
    expect(turns.json.turns[0]).toMatchObject({
      turnId: 'turn-1',
      finalKind: 'answer',
      steps: [{ step: 1, tool: 'bash', shown: 120, stored: log.bytes, entry: log.id }],
    });
    const turn = await call(`${base}/api/turns/turn-1`);
    expect(turn.json.record.steps[0].vaglio.score).toBe(0.9);
    expect(turn.json.record.steps[0].sandbox).toBe('bubblewrap');
    const context = await call(`${base}/api/context?session=build`);
    expect(context.json.totals).toMatchObject({ turns: 1, steps: 1, shown: 120, stored: log.bytes });
    const observation = await call(`${base}/api/sessions/build/entries/${log.id}/observation`);
    expect(observation.json).toMatchObject({ found: true, turnId: 'turn-1', step: 1, shownChars: 120 });
    expect(observation.json.observation).toContain('Stored as build-log');
    const none = await call(`${base}/api/sessions/other/entries/${wide.id}/observation`);
    expect(none.json).toEqual({ found: false });
  });

  it('changes its ETag when an entry or a turn is added, and answers 304 until then', async () => {
    const first = await call(`${base}/api/changes`);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await call(`${base}/api/changes`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    await scratchpad.write('build', 'another', 'more');
    const afterWrite = await call(`${base}/api/changes`, { headers: { 'if-none-match': etag } });
    expect(afterWrite.status).toBe(200);
    const etag2 = afterWrite.headers.etag as string;
    await appendTurnLog(turnsDir(), turnRecord({ turn_id: 'turn-2', ts_start: 1_700_000_100 }));
    await new Promise((resolve) => setTimeout(resolve, 600));
    const afterTurn = await call(`${base}/api/changes`, { headers: { 'if-none-match': etag2 } });
    expect(afterTurn.status).toBe(200);
    expect(afterTurn.json.turns).toBe(2);
  });

  it('keeps every reply under 1 MB: turn records are clipped, lines over the limit skipped', async () => {
    // 1,700 arguments of 500 characters: a 0.9 MB line that clipping at 4,000 or 1,000 characters leaves as it is.
    const rawArgs = Object.fromEntries(
      Array.from({ length: 1700 }, (_, index) => [`a${index}`, 'q'.repeat(500)]),
    );
    const step = {
      step: 1,
      tool: 'bash',
      llm: { inputTokens: 1, outputTokens: 1, latencyMs: 1 },
      rawArgs,
      resolvedArgs: {},
      outcome: 'executed' as const,
      result: { ok: true },
    };
    await appendTurnLog(
      turnsDir(),
      turnRecord({ turn_id: 'turn-wide', steps: [step], ts_start: 1_700_000_200 }),
    );
    await appendTurnLog(
      turnsDir(),
      turnRecord({ turn_id: 'turn-huge', user_query: 'q'.repeat(1_500_000), ts_start: 1_700_000_300 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 600));
    const turn = await call(`${base}/api/turns/turn-wide`);
    expect(turn.status).toBe(200);
    expect(turn.text.length).toBeLessThan(MAX_REPLY_BYTES);
    expect(turn.json.record.steps[0].rawArgs.a0).toMatch(/^q{200}… \[300 more chars\]$/);
    expect((await call(`${base}/api/turns/turn-huge`)).status).toBe(400);
    expect((await call(`${base}/api/turns`)).json.skippedLines).toBe(1);
    const page = await call(`${base}/api/sessions/other/entries/${wide.id}/lines?count=1000`);
    expect(page.text.length).toBeLessThan(MAX_REPLY_BYTES);
  });
});

describe('scratchpad ui hostile input', () => {
  it('answers any path and query under /api/ with JSON and a 2xx/4xx status, never a crash (property)', async () => {
    const segment = fc.oneof(
      fc.constantFrom(
        'sessions',
        'entries',
        'build',
        'other',
        log.id,
        blob.id,
        'lines',
        'chars',
        'bytes',
        'grep',
      ),
      fc.constantFrom(
        'turns',
        'turn-1',
        'context',
        'search',
        'observation',
        'pin',
        '%2e%2e',
        '%',
        '..',
        '%00',
      ),
      fc.string({ maxLength: 12 }).map(encodeURIComponent),
    );
    const query = fc.dictionary(
      fc.constantFrom(
        'start',
        'count',
        'offset',
        'limit',
        'pattern',
        'q',
        'session',
        'max',
        'orderBy',
        'ignoreCase',
      ),
      fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.integer().map(String),
        fc.constantFrom('-1', '1e9', '9'.repeat(30)),
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 6 }), query, async (segments, params) => {
        const search = new URLSearchParams(params).toString();
        const target = `${base}/api/${segments.join('/')}${search ? `?${search}` : ''}`;
        const reply = await call(target);
        // `/api/%2e%2e` is `/` once the URL is resolved: the app's page, not the API.
        if (!new URL(target).pathname.startsWith('/api/')) return;
        expect(
          reply.status === 200 || (reply.status >= 400 && reply.status < 500),
          `${reply.status} ${reply.text}`,
        ).toBe(true);
        expect(reply.json, reply.text).toBeTypeOf('object');
        if (reply.status >= 400) expect(typeof reply.json.error.code).toBe('string');
      }),
      { numRuns: 150 },
    );
  }, 60_000);
});

describe('scratchpad ui guards', () => {
  it('refuses foreign Host and Origin headers (DNS rebinding, cross-site pages) on the API and the app', async () => {
    for (const path of ['/api/sessions', '/']) {
      expect((await call(`${base}${path}`, { headers: { host: 'evil.example' } })).status).toBe(403);
      expect((await call(`${base}${path}`, { headers: { origin: 'http://evil.example' } })).status).toBe(403);
    }
    expect(
      (await call(`${base}/api/sessions`, { headers: { origin: `http://localhost:${server.port}` } })).status,
    ).toBe(200);
  });

  it('requires the bearer token on the API when one is set, not on the static app', async () => {
    const app = mkdtempSync(join(tmpdir(), 'scratchpad-ui-app-'));
    mkdirSync(join(app, 'assets'));
    writeFileSync(join(app, 'index.html'), '<!doctype html><title>inspector</title>');
    writeFileSync(join(app, 'assets', 'app.js'), 'console.log(1)');
    const token = 'a-token-of-enough-length';
    const guarded = await serveUi({
      scratchpad,
      turnLogDir: turnsDir(),
      address: '127.0.0.1:0',
      token,
      staticDir: app,
      log: () => undefined,
    });
    try {
      const url = `http://127.0.0.1:${guarded.port}`;
      expect(guarded.url).toBe(`${url}/#token=${token}`);
      const denied = await call(`${url}/api/sessions`);
      expect([denied.status, denied.json.error.code]).toEqual([401, 'UNAUTHORIZED']);
      expect(
        (await call(`${url}/api/sessions`, { headers: { authorization: `Bearer ${token}` } })).status,
      ).toBe(200);
      const page = await call(`${url}/`);
      expect(page.status).toBe(200);
      expect(page.headers['content-security-policy']).toContain("default-src 'self'");
      expect(page.text).toContain('inspector');
      expect((await call(`${url}/entry/x`)).text).toContain('inspector');
      expect((await call(`${url}/assets/app.js`)).headers['content-type']).toContain('javascript');
      expect((await call(`${url}/assets/../../store.db`)).status).toBe(404);
      const escaped = await call(`${url}/%2e%2e/%2e%2e/etc/passwd`);
      expect(escaped.text).toContain('inspector');
      expect(escaped.text).not.toContain('root:');
      expect((await call(`${url}/`, { method: 'POST' })).status).toBe(405);
    } finally {
      await guarded.close();
      rmSync(app, { recursive: true, force: true });
    }
  });

  it('off loopback makes a token for the run and puts it in the printed URL', async () => {
    const wide = await serveUi({
      scratchpad,
      turnLogDir: turnsDir(),
      address: '0.0.0.0:0',
      log: () => undefined,
    });
    try {
      expect(wide.token).toMatch(/^[0-9a-f]{48}$/);
      // A browser cannot open the wildcard address: the URL to open is loopback's, then each interface's.
      expect(wide.url).toBe(`http://127.0.0.1:${wide.port}/#token=${wide.token}`);
      expect(wide.urls[0]).toBe(wide.url);
      for (const url of wide.urls) expect(url).toMatch(new RegExp(`^http://[0-9.]+:${wide.port}/#token=`));
      expect((await call(`http://127.0.0.1:${wide.port}/api/sessions`)).status).toBe(401);
      const allowed = await call(`http://127.0.0.1:${wide.port}/api/sessions`, {
        headers: { authorization: `Bearer ${wide.token}` },
      });
      expect(allowed.status).toBe(200);
    } finally {
      await wide.close();
    }
  });
});
