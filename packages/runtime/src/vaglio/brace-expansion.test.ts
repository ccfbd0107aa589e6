import { describe, expect, it } from 'vitest';
import { expandBraces } from './brace-expansion.js';

describe('expandBraces', () => {
  it('expands comma lists, nested ones included', () => {
    expect(expandBraces('/etc/{passwd,hosts}').sort()).toEqual(['/etc/hosts', '/etc/passwd']);
    expect(expandBraces('{a,b{c,d}}x').sort()).toEqual(['ax', 'bcx', 'bdx']);
    expect(expandBraces('/{usr,etc}/{a,b}')).toHaveLength(4);
  });

  it('leaves words without a comma group alone', () => {
    expect(expandBraces('f(){ f|f& }')).toEqual(['f(){ f|f& }']);
    expect(expandBraces('$HOME/{x}')).toEqual(['$HOME/{x}']);
    expect(expandBraces('{{{a')).toEqual(['{{{a']);
  });

  it('stops at the limit', () => {
    expect(expandBraces('{a,b}{c,d}{e,f}{g,h}', 4).length).toBeLessThanOrEqual(8);
  });
});
