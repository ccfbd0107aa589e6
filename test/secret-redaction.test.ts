import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { createOffloadPolicy } from '../src/context/offload/offload-policy.js';
import { createOffloader } from '../src/context/offload/offloader.js';
import { CORPUS_SECRETS } from '../src/core/redaction/secret-corpus.fixture.js';
import type { RedactionConfig } from '../src/service/redaction-config.js';
import { createScratchpad } from '../src/service/scratchpad.js';
import { createMemoryDriver } from '../src/stores/memory/index.js';
import { createDefaultPreset } from '../src/tools/default/default-preset.js';
import { runTool, type ScratchpadTool } from '../src/tools/tool.js';
import { wrapTools } from '../src/tools/wrap-tools.js';

const secret = (label: string) => {
  const item = CORPUS_SECRETS.find((candidate) => candidate.label === label);
  if (!item) throw new Error(label);
  return item;
};
const envFile = secret('.env API key');
const pem = secret('RSA private key');
const awsId = secret('AWS access key id');

function setup(redaction?: RedactionConfig | false) {
  const scratchpad = createScratchpad({
    driver: createMemoryDriver(),
    ...(redaction === undefined ? {} : { redaction }),
  });
  const session = scratchpad.session('s1');
  const tools = createDefaultPreset().tools;
  const call = (name: string, input: unknown) =>
    runTool(tools.find((tool) => tool.name === name) as ScratchpadTool, input, { session });
  return { scratchpad, session, call };
}

const config = `# service config\n${envFile.text}\n${pem.text}\n${awsId.text}\nLOG_LEVEL=debug\n`;

describe('secret redaction in what the model sees (on by default)', () => {
  it('read, grep and search results show markers; the stored entry keeps every byte', async () => {
    const { session, call } = setup();
    await session.write('config.env', config);
    const read = await call('scratchpad_read', { name: 'config.env' });
    const grep = await call('scratchpad_read', { name: 'config.env', regex: 'KEY|aws' });
    const search = await call('scratchpad_search', { query: 'PAYMENTS_API_KEY aws_access_key_id' });
    for (const output of [read, grep, search]) {
      expect(output.isError ?? false).toBe(false);
      for (const item of [envFile, pem, awsId]) {
        expect(output.text).not.toContain(item.secret);
        expect(JSON.stringify(output.data ?? {})).not.toContain(item.secret);
      }
    }
    expect(read.text).toContain('PAYMENTS_API_KEY=[REDACTED:env-secret]');
    expect(read.text).toContain('[REDACTED:private-key]');
    expect(grep.text).toContain('[REDACTED:aws-access-key]');
    expect(read.text).toContain('LOG_LEVEL=debug');
    const stored = await session.read('config.env');
    expect(stored.content).toBe(config);
  });

  it('offload previews and inline results are redacted; the inline observation stays exact for piping', async () => {
    const { session } = setup();
    const offloader = createOffloader({ session, policy: createOffloadPolicy({ threshold: 200 }) });
    const large = `${'INFO starting worker\n'.repeat(40)}${config}${'INFO done\n'.repeat(40)}`;
    const stored = await offloader.process({ tool: 'bash', result: large });
    if (!stored.offloaded) throw new Error('expected an offload');
    expect(stored.text).not.toContain(awsId.secret);
    expect(stored.preview).not.toContain(envFile.secret);
    expect((await session.read({ id: stored.entry.id })).content).toBe(large);

    const small = await offloader.process({ tool: 'bash', result: { ok: true, content: awsId.text } });
    if (small.offloaded) throw new Error('expected inline');
    expect(small.text).toContain('[REDACTED:aws-access-key]');
    expect(small.observation).toEqual({ ok: true, content: awsId.text });
  });

  it('wrapped host tools return redacted text', async () => {
    const { session } = setup();
    const [tool] = wrapTools(
      [{ name: 'cat', inputSchema: { type: 'object', properties: {} }, execute: () => config }],
      { session },
    );
    const result = await tool?.execute({});
    expect(result?.text).toContain('[REDACTED:private-key]');
    expect(result?.text).not.toContain(pem.secret);
  });

  it('is off with redaction: false or view: false, and runs the host patterns', async () => {
    for (const redaction of [false, { view: false }] as const) {
      const { session, call } = setup(redaction);
      await session.write('config.env', config);
      expect((await call('scratchpad_read', { name: 'config.env' })).text).toContain(envFile.secret);
    }
    const { session, call } = setup({ patterns: [{ kind: 'ticket', pattern: 'TCK-[0-9]{6}' }] });
    await session.write('note', 'see TCK-123456');
    expect((await call('scratchpad_read', { name: 'note' })).text).toContain('see [REDACTED:ticket]');
  });
});

describe('secret redaction in what is stored (only when the host asks)', () => {
  it('store: true redacts strings, UTF-8 bytes and edits before they are stored; binary passes', async () => {
    const { session } = setup({ store: true });
    await session.write('a', config);
    expect((await session.read('a')).content).not.toContain(envFile.secret);
    await session.write('b', Buffer.from(config));
    expect((await session.read('b')).content).toContain('[REDACTED:private-key]');
    await session.write('c', 'TOKEN_PLACEHOLDER');
    await session.edit('c', { oldText: 'TOKEN_PLACEHOLDER', newText: awsId.text });
    expect((await session.read('c')).content).toBe('aws_access_key_id = [REDACTED:aws-access-key]');
    const binary = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00]), Buffer.from(awsId.text)]);
    await session.write('d', binary);
    expect(
      Buffer.from((await session.read('d', undefined, { encoding: 'base64' })).content, 'base64'),
    ).toEqual(binary);
  });

  it('store: true redacts a stream window by window, a key split across pieces included', async () => {
    const { session } = setup({ store: true });
    const filler = `${'x'.repeat(99)}\n`;
    const text = `${filler.repeat(15_000)}${pem.text}${filler.repeat(15_000)}${envFile.text}\n`;
    const pieces = function* () {
      for (let start = 0; start < text.length; start += 65_521) yield text.slice(start, start + 65_521);
    };
    const written = await session.write('stream', pieces());
    const stored = (await session.read('stream', undefined, { maxBytes: 1 << 26 })).content;
    expect(stored).not.toContain(pem.secret);
    expect(stored).not.toContain(envFile.secret);
    expect(stored.startsWith(filler.repeat(15_000))).toBe(true);
    expect(written.entry.bytes).toBe(Buffer.byteLength(stored));
  });
});
