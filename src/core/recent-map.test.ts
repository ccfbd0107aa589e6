import { describe, expect, it } from 'vitest';
import { setNewest } from './recent-map.js';

describe('setNewest', () => {
  it('keeps the most recently set entries up to the capacity, a key set again moving to the newest', () => {
    const map = new Map<string, number>();
    setNewest(map, 'a', 1, 2);
    setNewest(map, 'b', 2, 2);
    setNewest(map, 'a', 3, 2);
    setNewest(map, 'c', 4, 2);
    expect([...map]).toEqual([
      ['a', 3],
      ['c', 4],
    ]);
  });
});
