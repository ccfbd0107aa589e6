import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import type { PreviewContext } from './preview-builder.js';
import { salientPreview } from './salient-preview.js';

function input(text: string, context: PreviewContext = {}) {
  return { kind: 'text' as const, text, bytes: Buffer.from(text), context };
}

const SOURCE = [
  'import numpy',
  '',
  'def separability_matrix(transform):',
  '    return _coord_matrix(transform, noutputs)',
  '',
  'def _coord_matrix(model, position):',
  '    mapping = model.n_inputs_outputs',
  '    return self.field.disabled',
].join('\n');

describe('salientPreview', () => {
  it('indexes the names the result introduces, by the lines where each group first appears', () => {
    const preview = salientPreview(input(SOURCE), { namesPerLine: 2 });
    expect(preview.text).toBe(
      [
        'New names (first line):',
        '  L3: separability_matrix transform',
        '  L4: _coord_matrix noutputs',
        '  L6-7: position model.n_inputs_outputs',
        '  L8: self.field.disabled',
      ].join('\n'),
    );
    expect(preview.focusLine).toBe(3);
    expect(preview.searchExample).toBe('separability_matrix');
  });

  it('leaves out names the task or earlier steps already hold, and names a listed dotted name contains', () => {
    const context: PreviewContext = {
      task: 'Fix separability_matrix for nested models.',
      history: [
        {
          action: 'grep -n _coord_matrix src',
          thought: 'Where is transform used?',
          observation: 'see noutputs',
        },
      ],
    };
    const preview = salientPreview(input(`${SOURCE}\nself.field again`, context));
    expect(preview.text).toBe(
      ['New names (first line):', '  L6-8: position model.n_inputs_outputs self.field.disabled'].join('\n'),
    );
  });

  it('says so when nothing is new', () => {
    const preview = salientPreview(
      input('separability_matrix separability_matrix', { task: 'separability_matrix' }),
    );
    expect(preview.text).toBe('No new names.');
    expect(preview.searchExample).toBeUndefined();
  });

  it('shows the last error and location lines verbatim, with line numbers', () => {
    const log = [
      'collecting tests',
      'Traceback (most recent call last):',
      '  File "/testbed/app/models.py", line 12, in <module>',
      '    raise ValueError("bad")',
      'ValueError: bad input for parse_header',
      'done',
    ].join('\n');
    const preview = salientPreview(input(log), { diagnostics: 2 });
    expect(preview.text.split('\n').slice(0, 3)).toEqual([
      'Errors:',
      '  L3: File "/testbed/app/models.py", line 12, in <module>',
      '  L5: ValueError: bad input for parse_header',
    ]);
    expect(preview.focusLine).toBe(5);
  });

  it('counts file names nobody mentioned instead of listing them, and lists the ones the task names', () => {
    const listing = [
      '/repo/django/core/handlers.py',
      '/repo/django/core/validators.py',
      '/repo/django/core/serializers.py',
    ].join('\n');
    const preview = salientPreview(input(listing, { task: 'The validators reject valid URLs.' }));
    expect(preview.text).toBe(
      ['New names (first line):', '  L2: validators.py', 'Not listed: 2 file names.'].join('\n'),
    );
  });

  it('keeps the index within its budget, preferring names in errors and names related to the task', () => {
    const names = Array.from({ length: 50 }, (_, index) => `unrelated_name_${index}`);
    const text = [...names, 'parser_helper_function', 'KeyError: missing_setting_value'].join('\n');
    const preview = salientPreview(input(text, { task: 'the parser fails' }), { maxIndexChars: 80 });
    expect(preview.text).toContain('parser_helper_function');
    expect(preview.text).toContain('missing_setting_value');
    expect(preview.text).toMatch(/Not listed: \d+ more new names\./);
    expect(preview.text).not.toContain('unrelated_name_49');
  });

  it('uses nothing but the context it is given', () => {
    const context: PreviewContext = Object.freeze({ task: 'x', history: Object.freeze([]) });
    expect(() => salientPreview(input(SOURCE, context))).not.toThrow();
  });
});
