import { describe, expect, it } from 'vitest';
import { injectIntoLatestUserMessage } from './inject-into-latest-user-message.js';
import { formatNotesBlock, injectNotes } from './inject-notes.js';

describe('injectNotes', () => {
  it("prepends seed 001's block exactly", () => {
    expect(injectNotes('continue with step 2', '## Plan\n1. Fix X\n2. Test Y')).toBe(
      '[Session Scratchpad - your persistent working memory]\n## Plan\n1. Fix X\n2. Test Y\n[End Scratchpad]\n\ncontinue with step 2',
    );
  });

  it('injects nothing for empty notes', () => {
    expect(injectNotes('hello', '')).toBe('hello');
    expect(formatNotesBlock('')).toBe('');
  });

  it('orders steer → scratchpad → user message', () => {
    expect(injectNotes('what next?', 'plan', { steer: 'Focus on tests.' })).toBe(
      'Focus on tests.\n\n[Session Scratchpad - your persistent working memory]\nplan\n[End Scratchpad]\n\nwhat next?',
    );
    expect(injectNotes('what next?', '', { steer: 'Focus on tests.' })).toBe('Focus on tests.\n\nwhat next?');
  });

  it('is byte-identical for the same notes', () => {
    const notes = 'plan: ü 🚀\r\nstep 2';
    expect(Buffer.from(injectNotes('a', notes))).toEqual(Buffer.from(injectNotes('a', notes)));
    expect(formatNotesBlock(notes)).toBe(formatNotesBlock(`${notes}`));
  });
});

describe('injectIntoLatestUserMessage', () => {
  const history = [
    { role: 'system', content: 'You are helpful.' },
    {
      role: 'user',
      content: '[Session Scratchpad - your persistent working memory]\nold\n[End Scratchpad]\n\nfirst',
    },
    { role: 'assistant', content: 'ok' },
    { role: 'user', content: 'second' },
    { role: 'tool', content: 'result' },
  ];

  it('injects into the last user message only and leaves every other message untouched', () => {
    const result = injectIntoLatestUserMessage(history, 'new');
    expect(result).not.toBe(history);
    expect(result[3]?.content).toBe(
      '[Session Scratchpad - your persistent working memory]\nnew\n[End Scratchpad]\n\nsecond',
    );
    for (const index of [0, 1, 2, 4]) expect(result[index]).toBe(history[index]);
    expect(history[3]?.content).toBe('second');
  });

  it('handles content parts', () => {
    const text = injectIntoLatestUserMessage(
      [{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image' }] }],
      'n',
    );
    expect(text[0]?.content).toEqual([
      {
        type: 'text',
        text: '[Session Scratchpad - your persistent working memory]\nn\n[End Scratchpad]\n\nhi',
      },
      { type: 'image' },
    ]);
    const image = injectIntoLatestUserMessage([{ role: 'user', content: [{ type: 'image' }] }], 'n');
    expect(image[0]?.content).toEqual([
      {
        type: 'text',
        text: '[Session Scratchpad - your persistent working memory]\nn\n[End Scratchpad]\n\n',
      },
      { type: 'image' },
    ]);
  });

  it('returns an unchanged copy when there is nothing to inject or no user message', () => {
    expect(injectIntoLatestUserMessage(history, '')).toEqual(history);
    const noUser = [{ role: 'system', content: 's' }];
    expect(injectIntoLatestUserMessage(noUser, 'n')).toEqual(noUser);
  });
});
