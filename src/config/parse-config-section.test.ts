import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScratchpadError } from '../core/errors.js';
import { configField } from './config-field.js';
import { parseConfigSection } from './parse-config-section.js';
import { parseToml } from './parse-toml.js';

const SCHEMA = z.strictObject({
  enabled: configField.boolean(),
  limit: configField.integer(0),
  tier: configField.choice(['fast', 'wise']),
  tags: configField.stringList('tags (lower case)', '["a"]', (tag) => tag === tag.toLowerCase()),
  even: configField.custom(
    z
      .int()
      .refine((value) => value % 2 === 0, { message: 'an even number', params: { hint: 'Write even = 2.' } }),
    { expected: 'a whole number', example: '2' },
  ),
});

function failure(text: string): ScratchpadError {
  const raw = parseToml(text, '/etc/c.toml');
  try {
    parseConfigSection(SCHEMA, (raw.app as Record<string, unknown> | undefined)?.part, ['app', 'part'], {
      text,
      path: '/etc/c.toml',
    });
  } catch (error) {
    if (error instanceof ScratchpadError) return error;
    throw error;
  }
  throw new Error(`no error for ${text}`);
}

describe('parseConfigSection', () => {
  it('returns the typed keys present, none for an absent table', () => {
    const text = '[app.part]\nenabled = true\nlimit = 0\ntier = "wise"\ntags = ["x", "y"]\n';
    const raw = parseToml(text, 'c.toml') as { app: { part: unknown } };
    expect(parseConfigSection(SCHEMA, raw.app.part, ['app', 'part'], { text, path: 'c.toml' })).toEqual({
      enabled: true,
      limit: 0,
      tier: 'wise',
      tags: ['x', 'y'],
    });
    expect(parseConfigSection(SCHEMA, undefined, ['app', 'part'], { text: '', path: 'c.toml' })).toEqual({});
  });

  it('names the file, the line, the key, what it expects, what was given, and a hint', () => {
    const cases: [string, string, string][] = [
      [
        '[app.part]\n\nenabled = "yes"\n',
        '/etc/c.toml:3: enabled must be true or false (got "yes")',
        'Write enabled = true (no quotes).',
      ],
      [
        '[app.part]\nlimit = -1\n',
        '/etc/c.toml:2: limit must be a whole number, 0 or more (got -1)',
        'Write limit = 10 (no quotes).',
      ],
      [
        '[app.part]\nlimit = 1.5\n',
        '/etc/c.toml:2: limit must be a whole number, 0 or more (got 1.5)',
        'Write limit = 10 (no quotes).',
      ],
      [
        '[app.part]\ntier = "smart"\n',
        '/etc/c.toml:2: tier must be one of "fast", "wise" (got "smart")',
        'Write tier = "fast".',
      ],
      [
        '[app.part]\ntier = 3\n',
        '/etc/c.toml:2: tier must be one of "fast", "wise" (got 3)',
        'Write tier = "fast".',
      ],
      [
        '[app.part]\ntags = ["a", "B"]\n',
        '/etc/c.toml:2: tags must be a list of tags (lower case) (got "B", item 2)',
        'Write tags = ["a"].',
      ],
      [
        '[app.part]\ntags = "a"\n',
        '/etc/c.toml:2: tags must be a list of tags (lower case) (got "a")',
        'Write tags = ["a"].',
      ],
      ['[app.part]\neven = 3\n', '/etc/c.toml:2: even must be an even number (got 3)', 'Write even = 2.'],
      ['[app.part]\neven = "2"\n', '/etc/c.toml:2: even must be a whole number (got "2")', 'Write even = 2.'],
      [
        '[app.part]\nlimit = 1\nlimt = 2\n',
        '/etc/c.toml:3: unknown key limt in [app.part]',
        'Known keys: enabled, limit, tier, tags, even.',
      ],
      ['[app]\npart = 1\n', '/etc/c.toml:2: app.part must be a table', 'Write it as a section: [app.part].'],
    ];
    for (const [text, message, hint] of cases) {
      const error = failure(text);
      expect(error.code, text).toBe('CONFIG_INVALID');
      expect(error.message, text).toBe(message);
      expect(error.hint, text).toBe(hint);
    }
    expect(failure('[app.part]\nenabled = 1\n').details).toEqual({
      path: '/etc/c.toml',
      line: 2,
      key: 'app.part.enabled',
    });
  });

  it('reports an unknown key before a wrong value', () => {
    expect(failure('[app.part]\nenabled = "no"\nextra = 1\n').message).toBe(
      '/etc/c.toml:3: unknown key extra in [app.part]',
    );
  });
});
