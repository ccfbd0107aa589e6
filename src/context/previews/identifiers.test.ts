import { describe, expect, it } from 'vitest';
import { addSeenIdentifiers, identifierForms, identifiersIn } from './identifiers.js';

describe('identifiers', () => {
  it('finds identifiers of 8+ characters and strips sentence dots', () => {
    expect(identifiersIn('call self.field.disabled then separability_matrix. Done in directory.')).toEqual([
      'self.field.disabled',
      'separability_matrix',
      'directory',
    ]);
    expect(identifiersIn('short words only, abc.def')).toEqual([]);
  });

  it('counts the dotted sub-paths of what was seen', () => {
    expect([...identifierForms('self.field.disabled')].sort()).toEqual([
      'disabled',
      'field.disabled',
      'self.field',
      'self.field.disabled',
    ]);
    expect([...identifierForms('os.path.join')].sort()).toEqual(['os.path.join', 'path.join']);
    const seen = addSeenIdentifiers('import django.db.models', new Set());
    expect(seen.has('django.db')).toBe(true);
    expect(seen.has('db.models')).toBe(true);
  });
});
