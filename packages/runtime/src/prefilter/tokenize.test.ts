import { describe, expect, it } from 'vitest';
import { foldText, tokenize } from './tokenize.js';

describe('tokenize', () => {
  it('splits on anything but letters and digits, lowercases, and keeps URL parts', () => {
    expect(tokenize('fetch https://httpbin.org/get')).toEqual(['fetch', 'https', 'httpbin', 'org', 'get']);
    expect(tokenize('web_fetch FS_READ v2')).toEqual(['web', 'fetch', 'fs', 'read', 'v2']);
  });

  it('folds accents and compatibility forms', () => {
    expect(foldText('Perché ÀÉÎÕÜ ﬁle')).toBe('perche aeiou file');
    expect(tokenize('Leggi il file così com’è')).toEqual(['leggi', 'file', 'cosi', 'com']);
  });

  it('drops one-character tokens and stopwords in English and Italian', () => {
    expect(tokenize('read the file and tell me a line')).toEqual(['read', 'file', 'tell', 'line']);
    expect(tokenize('scarica la pagina e dimmi il titolo')).toEqual(['scarica', 'pagina', 'dimmi', 'titolo']);
  });

  it('keeps non-Latin letters', () => {
    expect(tokenize('читать файл 読む')).toEqual(['читать', 'фаил', '読む']);
  });
});
