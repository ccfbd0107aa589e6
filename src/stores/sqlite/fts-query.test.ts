import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toFtsQuery } from './fts-query.js';
import { openRawConnection } from './test-fixtures/raw-connection.js';

describe('toFtsQuery', () => {
  it('quotes each word and joins them with OR', () => {
    expect(toFtsQuery('Database migration')).toBe('"database" OR "migration"');
    // A CJK word is a phrase of its characters, each between zero-width spaces, as the index segments them.
    expect(toFtsQuery('café naïve 東京 x2')).toBe(
      '"café" OR "naïve" OR "\u200b東\u200b\u200b京\u200b" OR "x2"',
    );
    expect(toFtsQuery('error error ERROR')).toBe('"error"');
  });

  it('has no words in punctuation, operators alone still count as words', () => {
    expect(toFtsQuery('*** ( ) " ^ : -')).toBeUndefined();
    expect(toFtsQuery('___')).toBeUndefined();
    expect(toFtsQuery('NOT AND OR NEAR')).toBe('"not" OR "and" OR "or" OR "near"');
  });

  it('never produces an FTS5 syntax error, whatever the text', () => {
    const database = openRawConnection(':memory:');
    database.exec(
      "CREATE VIRTUAL TABLE documents USING fts5 (body, tokenize = 'unicode61 remove_diacritics 2')",
    );
    database.exec(
      "INSERT INTO documents (body) VALUES ('the quick brown fox'), ('NEAR the end: title^2 AND \"quoted\"')",
    );
    const search = database.prepare('SELECT rowid FROM documents WHERE documents MATCH ?');
    const hostile = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc
        .array(
          fc.constantFrom(
            '"',
            "'",
            '*',
            '(',
            ')',
            ':',
            '^',
            '-',
            '+',
            'NEAR',
            'AND',
            'OR',
            'NOT',
            '{',
            '}',
            'title',
            ' ',
            'fox',
            'é',
          ),
          { maxLength: 20 },
        )
        .map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(hostile, (text) => {
        const query = toFtsQuery(text);
        if (query !== undefined) expect(() => search.all(query)).not.toThrow();
      }),
      { numRuns: 1000 },
    );
    expect(search.all(toFtsQuery('"quoted" NEAR(fox)') as string).length).toBe(2);
    database.close();
  });
});
