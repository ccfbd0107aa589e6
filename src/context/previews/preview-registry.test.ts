import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { ScratchpadError } from '../../core/errors.js';
import { buildPreview, PREVIEW_BUILDERS, resolvePreview } from './preview-registry.js';

const binary = { kind: 'binary' as const, text: '', bytes: Buffer.from([1, 2, 3]), context: {} };

describe('preview registry', () => {
  it('answers binary results with the binary note whatever the preview', () => {
    for (const builder of Object.values(PREVIEW_BUILDERS)) {
      expect(buildPreview(builder, binary).text).toMatch(/^\[BINARY: 3 bytes, sha256=[0-9a-f]{64}\]$/);
    }
  });

  it('describes JSON with json-structure (a value, or text that reads as JSON), and falls back to head-tail', () => {
    const json = { items: [1, 2] };
    const text = JSON.stringify(json, null, 2);
    const jsonInput = { kind: 'text' as const, text, bytes: Buffer.from(text), json, context: {} };
    expect(buildPreview(PREVIEW_BUILDERS['json-structure'], jsonInput).text).toBe(
      'object, 1 key\n  items: array[2] of number (1)',
    );
    const { json: _, ...textOnly } = jsonInput;
    expect(buildPreview(PREVIEW_BUILDERS['json-structure'], textOnly).text).toBe(
      'object, 1 key\n  items: array[2] of number (1)',
    );
    expect(buildPreview(PREVIEW_BUILDERS.salient, jsonInput).text.startsWith('JSON object, 1 key:')).toBe(
      true,
    );
    const plain = { kind: 'text' as const, text: 'hello', bytes: Buffer.from('hello'), context: {} };
    expect(buildPreview(PREVIEW_BUILDERS['json-structure'], plain).text).toBe('hello');
  });

  it('resolves names and functions, and rejects unknown names with the list', () => {
    const custom = () => 'custom';
    expect(resolvePreview(custom)).toBe(custom);
    expect(resolvePreview('head')).toBe(PREVIEW_BUILDERS.head);
    try {
      resolvePreview('middle' as never);
      expect.unreachable();
    } catch (error) {
      expect(ScratchpadError.hasCode(error, 'INVALID_ARGUMENT')).toBe(true);
      expect((error as ScratchpadError).hint).toContain('salient');
    }
  });
});
