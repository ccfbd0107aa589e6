import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  markSegmentedTerms,
  SEAM_CHARS,
  seamPrefix,
  segmentScripts,
  unsegmentScripts,
} from './script-segments.js';

describe('script segments', () => {
  it('puts a zero-width space around each CJK, Thai and Hangul character, and nothing else', () => {
    expect(segmentScripts('abc エラー')).toBe('abc \u200bエ\u200b\u200bラ\u200b\u200bー\u200b');
    expect(segmentScripts('ok 𠀀 กข 가')).toBe('ok \u200b𠀀\u200b \u200bก\u200b\u200bข\u200b \u200b가\u200b');
    expect(segmentScripts('café привет')).toBe('café привет');
  });

  it('reads as written once the breaks are taken out', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const clean = text.replaceAll('\u200b', '');
        expect(unsegmentScripts(segmentScripts(clean))).toBe(clean);
      }),
    );
  });

  it('marks a word of those scripts where it is, not each of its characters where they are', () => {
    expect(markSegmentedTerms('ก[า]ร[ค]้[น][ห][า]ข้อมูล', ['ค้นหา'])).toBe('การ[ค้นหา]ข้อมูล');
    expect(markSegmentedTerms('ジョブで[エ][ラ][ー]が[発]生', ['エラー'])).toBe('ジョブで[エラー]が発生');
    expect(markSegmentedTerms('the [database] plan', ['database'])).toBe('the [database] plan');
  });

  it('a seam is the run of non-space characters a chunk ends with, at most SEAM_CHARS of them', () => {
    expect(seamPrefix('the log ends with zebracorn')).toBe('zebracorn');
    expect(seamPrefix('ends with a space ')).toBe('');
    expect(seamPrefix('全文検索の結果：エラー')).toBe('全文検索の結果：エラー');
    const long = '😀'.repeat(SEAM_CHARS + 10);
    expect(seamPrefix(long)).toBe('😀'.repeat(SEAM_CHARS));
  });
});
