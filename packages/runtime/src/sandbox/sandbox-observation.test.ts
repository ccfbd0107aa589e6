import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { explainSandboxOutcome, type SandboxCallFacts } from './sandbox-observation.js';
import { unixSocketFilter } from './unix-socket-filter.js';

const facts: SandboxCallFacts = {
  writeRoots: ['/home/ada/project'],
  temporaryFolder: '/run/scratchpad/tmp',
  limitNotes: [],
  fileSizeMb: 8,
};

describe('explainSandboxOutcome', () => {
  it('leaves outcomes that report no refusal and no limit as they are', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.string(), (ok, error) => {
        fc.pre(!/read-only file system|EROFS|file size limit|SIGXFSZ|EFBIG/i.test(error));
        const outcome = ok ? { ok, content: error } : { ok, error };
        expect(explainSandboxOutcome(outcome, facts)).toEqual(outcome);
      }),
    );
  });

  it('turns any read-only failure into WRITE_REFUSED naming the roots and how to add one', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (before, after) => {
        const explained = explainSandboxOutcome(
          { ok: false, error: `${before}Read-only file system${after}` },
          facts,
        );
        expect(explained.error?.startsWith('WRITE_REFUSED: ')).toBe(true);
        expect(explained.error).toContain('(/home/ada/project)');
        expect(explained.error).toContain('--write-root PATH');
        expect(explained.metadata).toMatchObject({
          error_code: 'WRITE_REFUSED',
          write_roots: ['/home/ada/project'],
        });
      }),
    );
  });

  it('puts limits a successful call reached first in its metadata', () => {
    const explained = explainSandboxOutcome(
      { ok: true, content: 'x', metadata: { stderr: 'Cannot fork' } },
      { ...facts, limitNotes: ['the call reached its limit of 64 processes'] },
    );
    expect(Object.keys(explained.metadata ?? {})).toEqual(['sandbox_limits', 'stderr']);
  });
});

describe('unixSocketFilter', () => {
  it('is whole sock_filter instructions for x86-64 and arm64, and absent elsewhere', () => {
    for (const arch of ['x64', 'arm64']) {
      const filter = unixSocketFilter(arch) as Buffer;
      expect(filter.length % 8).toBe(0);
      // The last instruction allows what no rule matched: BPF_RET | BPF_K with SECCOMP_RET_ALLOW.
      expect(filter.readUInt16LE(filter.length - 8)).toBe(0x06);
      expect(filter.readUInt32LE(filter.length - 4)).toBe(0x7fff0000);
    }
    expect(unixSocketFilter('riscv64')).toBeUndefined();
  });
});
