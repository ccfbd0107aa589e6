import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Executor } from '../executors/executor.js';
import { buildDesiredSignature } from '../mnestome/desired-signature.js';
import { Mnestome, type Passage } from '../mnestome/mnestome.js';
import { compose } from './compose.js';
import { findChain } from './find-chain.js';
import { satisfiesSignature } from './satisfies-signature.js';

function executor(name: string, affinity: string[], properties: string[], required = properties): Executor {
  const args = {
    type: 'object',
    properties: Object.fromEntries(properties.map((key) => [key, { type: 'string' }])),
    required,
  };
  return {
    name,
    version: '1.0.0',
    description: name,
    affinity,
    capabilities: [],
    args,
    entry: ['node', './index.mjs'],
    limits: {},
    dir: `/executors/${name}`,
    keyId: 'k',
    codeDigest: 'sha256:0',
    manifest: { name, description: name, affinity, capabilities: [], args, entry: ['node', './index.mjs'] },
  } as Executor;
}

const catalog = [
  executor('fs_read', ['read', 'file'], ['path']),
  executor('fs_write', ['write', 'save', 'file'], ['path', 'content', 'append'], ['path', 'content']),
  executor('text_stats', ['count', 'words', 'text'], ['text']),
  executor('summarize', ['summary', 'short'], ['text']),
];

const passage = (src: string, dst: string, weight = 0.2, exists = true): Passage => ({
  src,
  dst,
  weight,
  uses: 1,
  last_used_at: '2026-04-01T00:00:00.000Z',
  dst_exists: exists,
  desired_signature: null,
});

const saveCopy = buildDesiredSignature('save_copy', { path: 'a', content: 'b' }, []);

describe('satisfiesSignature', () => {
  it('needs every argument accepted, nothing more required, and half of the name’s words', () => {
    expect(satisfiesSignature(catalog[1] as Executor, saveCopy)).toBe(true);
    expect(satisfiesSignature(catalog[0] as Executor, saveCopy)).toBe(false);
    const extraArgument = buildDesiredSignature('save_copy', { path: 'a', content: 'b', mode: 'x' }, []);
    expect(satisfiesSignature(catalog[1] as Executor, extraArgument)).toBe(false);
    const missingRequired = buildDesiredSignature('save_copy', { content: 'b' }, []);
    expect(satisfiesSignature(catalog[1] as Executor, missingRequired)).toBe(false);
    const otherWords = buildDesiredSignature('upload_blob', { path: 'a', content: 'b' }, []);
    expect(satisfiesSignature(catalog[1] as Executor, otherWords)).toBe(false);
  });
});

describe('findChain', () => {
  it('walks real passages breadth-first, through signed executors only, to the nearest match', () => {
    const countWords = buildDesiredSignature('count_words', { text: 'x' }, []);
    const passages = [
      passage('fs_read', 'summarize', 0.5),
      passage('summarize', 'text_stats'),
      passage('fs_read', 'unsigned_tool', 0.9),
      passage('unsigned_tool', 'text_stats', 0.9),
    ];
    expect(findChain({ source: 'fs_read', signature: countWords, passages, catalog })).toEqual([
      'fs_read',
      'summarize',
      'text_stats',
    ]);
    expect(
      findChain({ source: 'fs_read', signature: countWords, passages, catalog, maxHops: 1 }),
    ).toBeUndefined();
    expect(
      findChain({
        source: 'fs_read',
        signature: countWords,
        passages: [passage('fs_read', 'text_stats', 0.2, false)],
        catalog,
      }),
    ).toBeUndefined();
  });
});

describe('compose', () => {
  let dir: string;
  let mnestome: Mnestome;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'scratchpad-compose-'));
    mnestome = Mnestome.open(join(dir, 'mnestome.db'));
  });
  afterEach(() => {
    mnestome.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the seed’s composed outcome, or abandoned', async () => {
    await mnestome.recordPassing({ src: 'fs_read', dst: 'fs_write', dstExists: true });
    expect(await compose({ sources: ['fs_read'], signature: saveCopy, mnestome, catalog })).toEqual({
      strategy: 'compose',
      state: 'composed',
      chain: ['fs_read', 'fs_write'],
      first_hop: 'fs_write',
      suggestion: "Retry by invoking 'fs_write' as the next step",
    });
    const klingon = buildDesiredSignature('translate_to_klingon', { text: 'x' }, []);
    expect(await compose({ sources: ['fs_read'], signature: klingon, mnestome, catalog })).toEqual({
      state: 'abandoned',
      suggestion: 'There is no executor available for this need, look for another way',
    });
  });
});
