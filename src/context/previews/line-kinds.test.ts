import { describe, expect, it } from 'vitest';
import { mineLineKinds, templateText } from './line-kinds.js';

describe('mineLineKinds', () => {
  it('groups log lines by their fixed words, whatever their numbers, dates and names', () => {
    const lines = [
      'Dec 10 06:55:46 LabSZ sshd[24200]: Invalid user webmaster from 173.234.31.186',
      'Dec 10 07:07:38 LabSZ sshd[24206]: Invalid user test9 from 52.80.34.196',
      'Dec 10 07:08:01 LabSZ sshd[24208]: Invalid user admin from 5.36.59.76',
      'Dec 10 09:32:20 LabSZ sshd[24680]: Accepted password for fztu from 119.137.62.142 port 49116 ssh2',
      'Dec 10 07:13:43 LabSZ sshd[24227]: Failed password for root from 5.36.59.76 port 42393 ssh2',
      'Dec 10 07:13:45 LabSZ sshd[24227]: Failed password for root from 5.36.59.76 port 42399 ssh2',
      '',
    ];
    const { kinds, kindOf } = mineLineKinds(lines);
    expect(kinds.map((kind) => [templateText(kind), kind.count])).toEqual([
      ['<*> <*> <*> LabSZ <*> Invalid user <*> from <*>', 3],
      ['<*> <*> <*> LabSZ <*> Accepted password for fztu from <*> port <*> <*>', 1],
      ['<*> <*> <*> LabSZ <*> Failed password for root from <*> port <*> <*>', 2],
    ]);
    expect([...kindOf]).toEqual([0, 0, 0, 1, 2, 2, -1]);
    expect(kinds[0]?.examples).toEqual([0, 1, 2]);
  });

  it('gives lines that do not repeat a kind each', () => {
    const code = [
      'def parse(text):',
      '    tokens = text.split()',
      '    return build(tokens)',
      'class Parser:',
    ];
    expect(mineLineKinds(code).kinds).toHaveLength(4);
  });
});
