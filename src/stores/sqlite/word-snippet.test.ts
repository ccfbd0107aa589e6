import { describe, expect, it } from 'vitest';
import { wordSnippet } from './word-snippet.js';

describe('wordSnippet', () => {
  it('cuts about 24 words around the first query word found as a whole word, marked, with … where it cuts', () => {
    const words = Array.from({ length: 60 }, (_, index) => `w${index}`);
    words[30] = 'Needle';
    const text = `${words.join(' ')}\nnext line`;
    const snippet = wordSnippet(text, ['needle']) as string;
    expect(snippet).toMatch(/^…/);
    expect(snippet).toMatch(/…$/);
    expect(snippet).toContain('w29 [Needle] w31');
    expect(snippet.split(' ').length).toBeLessThanOrEqual(26);
  });

  it('takes whole words only, and leaves to FTS5 what it cannot place: no word, or a segmented script', () => {
    expect(wordSnippet('needles and haystack', ['needle'])).toBeUndefined();
    expect(wordSnippet('a needle_x b', ['needle'])).toBeUndefined();
    expect(wordSnippet('short needle text', ['needle'])).toBe('short [needle] text');
    expect(wordSnippet('エラーが発生しました', ['エラー'])).toBeUndefined();
    expect(wordSnippet('line one\n\tERROR   two', ['error'])).toBe('line one [ERROR] two');
  });
});
