import { beforeEach, describe, expect, it } from 'vitest';
import { ScratchpadError } from '../../core/errors.js';
import { CORPUS_SECRETS } from '../../core/redaction/secret-corpus.fixture.js';
import { createScratchpad, type SessionScratchpad } from '../../service/scratchpad.js';
import { createMemoryDriver } from '../../stores/memory/index.js';
import { createOffloadPolicy } from './offload-policy.js';
import { createOffloader } from './offloader.js';
import type { SummarizeOptions, SummarizeRequest } from './summary-preview.js';

let session: SessionScratchpad;
beforeEach(() => {
  session = createScratchpad({ driver: createMemoryDriver() }).session('summary');
});

/** A log of about `bytes` bytes with one error line in the middle. */
function bigLog(bytes: number, label = 'svc'): string {
  const lines: string[] = [];
  for (let index = 0; lines.join('\n').length < bytes; index += 50) {
    for (let line = index; line < index + 50; line++)
      lines.push(`2026-05-01T10:00:${line % 60} INFO ${label} request ${line} ok`);
  }
  lines[Math.floor(lines.length / 2)] = `2026-05-01T10:00:00 ERROR ${label} disk quota exceeded on /var/data`;
  return `${lines.join('\n')}\n`;
}

/** `text` as the executor's stream delivers it: UTF-8 bytes, in pieces. */
async function* streamOf(text: string): AsyncIterable<Uint8Array> {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += 16_384) yield bytes.subarray(at, at + 16_384);
}

function offloaderWith(summarize: SummarizeOptions) {
  return createOffloader({ session, policy: createOffloadPolicy({ summarize }) });
}

describe('the summarize preview', () => {
  it('puts the summarizer answer in the observation, with the read calls, and caches it by content', async () => {
    const requests: SummarizeRequest[] = [];
    const offloader = offloaderWith({
      summarizer: async (request) => {
        requests.push(request);
        return 'A service log of 1,200 lines; one ERROR: disk quota exceeded on /var/data.';
      },
    });
    const log = bigLog(60_000);
    const first = await offloader.process({
      tool: 'bash',
      result: log,
      context: { task: 'why did it stop?' },
    });
    expect(first.offloaded && first.summary).toEqual({ source: 'model' });
    expect(first.text).toContain('Summary (written by a model');
    expect(first.text).toContain('disk quota exceeded on /var/data');
    expect(first.text).toMatch(/Read more: scratchpad_read \{"name": "bash_1"/);
    expect(requests[0]).toMatchObject({
      text: log,
      sampled: false,
      chars: log.length,
      task: 'why did it stop?',
    });
    expect(requests[0]?.maxOutputTokens).toBe(400);

    const second = await offloader.process({
      tool: 'bash',
      result: log,
      context: { task: 'why did it stop?' },
    });
    expect(second.offloaded && second.summary).toEqual({ source: 'cache' });
    expect(requests).toHaveLength(1);
  });

  it('falls back to the salient preview on an error, a timeout, an empty or a non-string answer', async () => {
    const log = bigLog(60_000);
    const salient = await createOffloader({ session, policy: createOffloadPolicy() }).process({
      tool: 'bash',
      result: log,
    });
    const salientPreview = salient.offloaded ? salient.preview : '';
    const cases: Array<[SummarizeOptions['summarizer'], string]> = [
      [async () => Promise.reject(new Error('model down')), 'error'],
      [
        () => {
          throw new Error('sync throw');
        },
        'error',
      ],
      [
        (request) =>
          new Promise((_, reject) =>
            request.signal.addEventListener('abort', () => reject(new Error('aborted'))),
          ),
        'timeout',
      ],
      [() => new Promise(() => {}), 'timeout'],
      [async () => '   ', 'empty'],
      [async () => 42 as unknown as string, 'empty'],
    ];
    for (const [summarizer, reason] of cases) {
      const outcome = await offloaderWith({ summarizer, timeoutMs: 50 }).process({
        tool: 'bash',
        result: log,
      });
      expect(outcome.offloaded && outcome.summary).toEqual({ source: 'fallback', reason });
      expect(outcome.offloaded && outcome.preview).toBe(salientPreview);
    }
  });

  it('summarizes only text outputs within its size range', async () => {
    let calls = 0;
    const offloader = offloaderWith({
      summarizer: async () => `summary ${++calls}`,
      minBytes: 10_000,
      maxBytes: 20_000,
    });
    for (const bytes of [2000, 30_000]) {
      const outcome = await offloader.process({ tool: 'bash', result: bigLog(bytes, `s${bytes}`) });
      expect(outcome.offloaded).toBe(true);
      expect(outcome.offloaded && outcome.summary).toBeUndefined();
    }
    const binary = await offloader.process({ tool: 'img', result: new Uint8Array(15_000).fill(255) });
    expect(binary.offloaded && binary.summary).toBeUndefined();
    expect(calls).toBe(0);
  });

  it('sends a head and tail within maxInputTokens, and cuts a long answer to maxOutputTokens', async () => {
    const requests: SummarizeRequest[] = [];
    const offloader = offloaderWith({
      summarizer: async (request) => {
        requests.push(request);
        return `\u0007${'word '.repeat(5000)}`;
      },
      maxInputTokens: 2000,
      maxOutputTokens: 100,
    });
    const log = bigLog(200_000);
    const outcome = await offloader.process({ tool: 'bash', result: log });
    const sent = requests[0] as SummarizeRequest;
    expect(sent.sampled).toBe(true);
    expect(Math.ceil(sent.text.length / 4)).toBeLessThanOrEqual(2000);
    expect(sent.text.startsWith(log.slice(0, 1000))).toBe(true);
    expect(sent.text.endsWith(log.slice(-1000))).toBe(true);
    expect(sent.text).toMatch(/\[… \d+ characters left out …\]/);
    const summary = (outcome.offloaded ? outcome.preview : '').split('\n').slice(1).join('\n');
    expect(summary).not.toContain('\u0007');
    expect(Math.ceil(summary.length / 4)).toBeLessThanOrEqual(101);
    // The whole output is stored, whatever the summarizer saw.
    expect((await session.read('bash_1', { type: 'full' })).content).toBe(log);
  });

  it('sends the summarizer the output with its secrets redacted, and redacts its answer', async () => {
    const secret = CORPUS_SECRETS[0] as (typeof CORPUS_SECRETS)[number];
    const log = `${bigLog(30_000)}${secret.text}${bigLog(30_000, 'tail')}`;
    let sent = '';
    const offloader = offloaderWith({
      summarizer: async (request) => {
        sent = request.text;
        return `It printed a key: ${secret.text}`;
      },
    });
    const outcome = await offloader.process({ tool: 'bash', result: log });
    expect(outcome.offloaded && outcome.summary).toEqual({ source: 'model' });
    expect(sent).not.toContain(secret.secret);
    expect(sent).toContain('[REDACTED:private-key]');
    expect(outcome.text).not.toContain(secret.secret);
    expect(outcome.text).toContain('[REDACTED:private-key]');
    // What is stored stays byte-exact (store redaction is off by default).
    expect((await session.read('bash_1', { type: 'full' })).content).toBe(log);
  });

  it('summarizes a streamed result (describeStored) within its size range, from the stored text', async () => {
    const requests: SummarizeRequest[] = [];
    const offloader = offloaderWith({
      summarizer: async (request) => {
        requests.push(request);
        return 'A log; one ERROR: disk quota exceeded on /var/data.';
      },
      maxBytes: 100_000,
    });
    const log = bigLog(60_000);
    const entry = await offloader.storeStream({ tool: 'fs_read', content: streamOf(log) });
    const outcome = await offloader.describeStored({
      tool: 'fs_read',
      entry,
      metadata: {},
      shell: { ok: true },
      context: { task: 'why did it stop?' },
    });
    expect(outcome.summary).toEqual({ source: 'model' });
    expect(outcome.text).toContain('Summary (written by a model');
    expect(outcome.text).toContain('disk quota exceeded on /var/data');
    expect(requests[0]).toMatchObject({ text: log, sampled: false, task: 'why did it stop?' });
    // Above max_bytes the salient preview of the stored windows stays, and the summarizer is not asked.
    const large = await offloader.storeStream({ tool: 'fs_read', content: streamOf(bigLog(150_000, 'big')) });
    const plain = await offloader.describeStored({ tool: 'fs_read', entry: large, metadata: {}, shell: {} });
    expect(plain.summary).toBeUndefined();
    expect(requests).toHaveLength(1);
  });

  it('refuses a policy without a summarizer function, or with a bad budget', () => {
    for (const summarize of [
      {},
      { summarizer: 'x' },
      { summarizer: async () => '', timeoutMs: 0 },
      { summarizer: async () => '', maxBytes: 1.5 },
    ]) {
      let caught: unknown;
      try {
        createOffloadPolicy({ summarize: summarize as SummarizeOptions });
      } catch (error) {
        caught = error;
      }
      expect(ScratchpadError.hasCode(caught, 'CONFIG_INVALID')).toBe(true);
    }
  });
});
