import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeCodeDigest } from './code-digest.js';
import { type Executor, toExecutor } from './executor.js';
import { runExecutor, runExecutorDetailed } from './run-executor.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'scratchpad-channel-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** An executor that writes `bytes` bytes of `x` on the content channel and declares them as text. */
async function streamingExecutor(name: string): Promise<Executor> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'index.mjs'),
    `import { createWriteStream } from 'node:fs';
let text = ''; for await (const chunk of process.stdin) text += chunk;
const { bytes } = JSON.parse(text);
const out = createWriteStream(null, { fd: Number(process.env.SCRATCHPAD_CONTENT_FD) });
let left = bytes;
const piece = Buffer.alloc(65536, 'x');
while (left > 0) {
  const part = piece.subarray(0, Math.min(left, piece.length));
  left -= part.length;
  if (!out.write(part)) await new Promise((done) => out.once('drain', done));
}
await new Promise((done) => out.end(done));
process.stdout.write(JSON.stringify({ ok: true, content_stream: 'text', metadata: { bound: process.env.SCRATCHPAD_MAX_CONTENT_BYTES } }) + '\\n', () => process.exit(0));
`,
  );
  const manifest = {
    name,
    description: name,
    affinity: [],
    capabilities: [],
    args: { type: 'object' },
    entry: ['node', './index.mjs'],
  };
  const digest = await computeCodeDigest(dir);
  if (!digest.ok) throw new Error(digest.reason);
  return toExecutor(manifest, dir, '0'.repeat(16), digest.digest);
}

describe('the content channel', () => {
  it('delivers every byte to the receiver, whatever the size and the receiver pace, and tells the bound', async () => {
    const executor = await streamingExecutor('stream_sizes');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 3_000_000 }), fc.boolean(), async (bytes, slow) => {
        let received = 0;
        const run = await runExecutorDetailed(
          executor,
          { bytes },
          {
            maxContentBytes: 4_000_000,
            async receiveContent(channel) {
              for await (const chunk of channel) {
                received += chunk.length;
                if (slow) await new Promise((done) => setImmediate(done));
              }
            },
          },
        );
        expect(run.outcome).toEqual({ ok: true, metadata: { bound: '4000000' } });
        expect(run.contentStream).toBe('text');
        expect(run.contentBytes).toBe(bytes);
        expect(received).toBe(bytes);
      }),
      { numRuns: 8 },
    );
  }, 120_000);

  it('stops an executor that sends more than its bound, and says so', async () => {
    const executor = await streamingExecutor('stream_over');
    let received = 0;
    const run = await runExecutorDetailed(
      executor,
      { bytes: 300_000 },
      {
        maxContentBytes: 100_000,
        async receiveContent(channel) {
          for await (const chunk of channel) received += chunk.length;
        },
      },
    );
    expect(run.outcome.ok).toBe(false);
    expect(run.outcome.error).toMatch(/^streamed content exceeded 100000 bytes \(the bound it was told\)/);
    expect(received).toBe(100_000);
  });

  it('a receiver that fails stops the call with its reason', async () => {
    const executor = await streamingExecutor('stream_refused');
    const run = await runExecutorDetailed(
      executor,
      { bytes: 5_000_000 },
      {
        async receiveContent(channel) {
          for await (const _chunk of channel) throw new Error('the store is full');
        },
      },
    );
    expect(run.outcome.error).toMatch(/^its streamed content could not be kept: the store is full/);
  });

  it('without a receiver the content becomes the outcome content, within the output cap', async () => {
    const executor = await streamingExecutor('stream_inline');
    expect(await runExecutor(executor, { bytes: 5 })).toEqual({
      ok: true,
      content: 'xxxxx',
      metadata: { bound: String(16 * 1024 * 1024) },
    });
    const capped = await runExecutor(executor, { bytes: 2_000 }, { maxOutputBytes: 1_000 });
    expect(capped.error).toMatch(/^streamed content exceeded 1000 bytes/);
  });

  it('the shipped executors that stream hold the same copy of content-sink.mjs', async () => {
    const shipped = resolve(import.meta.dirname, '../../executors');
    const copies = await Promise.all(
      ['fs_read', 'shell_exec', 'web_fetch'].map((name) =>
        readFile(join(shipped, name, 'content-sink.mjs'), 'utf8'),
      ),
    );
    expect(copies[0]).toContain('SCRATCHPAD_CONTENT_FD');
    expect(new Set(copies).size).toBe(1);
  });
});
