import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type GuardEnvironment, runGuard } from './guard.js';

const environment: GuardEnvironment = { home: '/home/alice', user: 'alice', cwd: '/home/alice/project' };

function guardRule(args: unknown, capabilities: string[] = ['fs:read']): string | undefined {
  return runGuard({ executor: 'fs_read', capabilities, args }, environment)?.rule;
}

/** [description, arguments, expected rule] — every one must be denied. */
const DENIED: [string, unknown, string][] = [
  ['~/.ssh key', { path: '~/.ssh/id_rsa' }, 'ssh'],
  ['absolute home .ssh', { path: '/home/alice/.ssh/id_rsa' }, 'ssh'],
  ['$HOME/.ssh', { path: '$HOME/.ssh/id_rsa' }, 'ssh'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax under test, not a template
  ['${HOME}/.ssh', { path: '${HOME}/.ssh/authorized_keys' }, 'ssh'],
  ['$USER in a home path', { path: '/home/$USER/.ssh/config' }, 'ssh'],
  ['another user .ssh', { path: '/home/bob/.ssh/id_ed25519' }, 'ssh'],
  ['~bob/.ssh', { path: '~bob/.ssh' }, 'ssh'],
  ['bare .ssh in home cwd', { command: 'cd ~ && tar czf /tmp/k.tgz .ssh' }, 'ssh'],
  ['/etc/passwd', { path: '/etc/passwd' }, 'etc-accounts'],
  ['/etc/shadow', { path: '/etc/shadow' }, 'etc-accounts'],
  ['/etc/sudoers', { path: '/etc/sudoers' }, 'etc-accounts'],
  ['sudoers drop-in', { path: '/etc/sudoers.d/90-cloud-init-users' }, 'etc-accounts'],
  ['passwd backup', { path: '/etc/passwd-' }, 'etc-accounts'],
  ['shadow .bak', { path: '/etc/shadow.bak' }, 'etc-accounts'],
  ['upper case', { path: '/ETC/PASSWD' }, 'etc-accounts'],
  ['mixed case root', { path: '/Root/.bashrc' }, 'root-home'],
  ['duplicate slashes', { path: '//etc///passwd' }, 'etc-accounts'],
  ['dot segments', { path: '/etc/./shadow' }, 'etc-accounts'],
  ['absolute traversal', { path: '/tmp/../etc/shadow' }, 'etc-accounts'],
  ['relative traversal', { path: '../../../../etc/passwd' }, 'etc-accounts'],
  ['URL-encoded', { path: '%2Fetc%2Fpasswd' }, 'etc-accounts'],
  ['URL-encoded dots', { path: '%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/shadow' }, 'etc-accounts'],
  ['double URL-encoded', { path: '%252Fetc%252Fshadow' }, 'etc-accounts'],
  ['file URL', { url: 'file:///etc/passwd' }, 'etc-accounts'],
  ['fullwidth characters', { path: '／ｅｔｃ／ｐａｓｓｗｄ' }, 'etc-accounts'],
  ['zero-width space', { path: '/etc/pass\u200bwd' }, 'etc-accounts'],
  ['/root', { path: '/root' }, 'root-home'],
  ['~root', { path: '~root/.profile' }, 'root-home'],
  ['/boot', { path: '/boot/grub/grub.cfg' }, 'boot'],
  ['/sys', { path: '/sys/kernel/debug' }, 'sys'],
  ['/proc environ', { path: '/proc/self/environ' }, 'proc'],
  ['/proc via traversal', { path: '/proc/1/../self/environ' }, 'proc'],
  ['/dev/sda', { path: '/dev/sda' }, 'block-devices'],
  ['/dev/nvme', { path: '/dev/nvme0n1p1' }, 'block-devices'],
  ['/dev/sd* glob', { pattern: '/dev/sd*' }, 'block-devices'],
  ['aws credentials', { path: '~/.aws/credentials' }, 'aws-credentials'],
  ['config credentials.env', { path: '~/.config/gh/credentials.env' }, 'config-credentials'],
  ['gnupg', { path: '~/.gnupg/private-keys-v1.d' }, 'gnupg'],
  ['glob star', { path: '/etc/pass*' }, 'etc-accounts'],
  ['glob class', { path: '/etc/[p]asswd' }, 'etc-accounts'],
  ['glob question marks', { path: '/e?c/sh*' }, 'etc-accounts'],
  ['glob into .ssh', { path: '~/.ss?/id_*' }, 'ssh'],
  ['globstar', { path: '/**/shadow' }, 'etc-accounts'],
  ['brace expansion', { path: '/etc/{hosts,shadow}' }, 'etc-accounts'],
  ['nested array value', { options: { files: ['notes.txt', '/etc/shadow'] } }, 'etc-accounts'],
  ['object key', { '/etc/passwd': true }, 'etc-accounts'],
  ['prose mention', { content: 'Please summarize /etc/passwd for me.' }, 'etc-accounts'],
  ['JSON inside a string', { body: '{"path":"/etc/passwd"}' }, 'etc-accounts'],
  ['--file= option', { command: 'tool --file=/etc/shadow' }, 'etc-accounts'],
  ['shell pipe', { command: 'cat /etc/passwd | head -3' }, 'etc-accounts'],
  ['shell quotes', { command: `cat /et'c'/pa"ss"wd` }, 'etc-accounts'],
  ['backslashes', { command: 'cat /etc/pa\\ss\\wd' }, 'etc-accounts'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax under test, not a template
  ['$IFS separator', { command: 'cat${IFS}/etc/passwd' }, 'etc-accounts'],
  ['hex escapes', { command: "cat $'\\x2fetc\\x2fpasswd'" }, 'etc-accounts'],
  ['octal escapes', { command: "printf '\\057etc\\057shadow' | xargs cat" }, 'etc-accounts'],
  ['cd then relative', { command: 'cd /etc && cat shadow' }, 'etc-accounts'],
  ['cd / then root/', { command: 'cd / ; ls root' }, 'root-home'],
  ['cwd argument then bare name', { command: 'cat shadow', cwd: '/etc' }, 'etc-accounts'],
  ['cwd argument is protected', { command: 'ls', cwd: '~/.ssh' }, 'ssh'],
  ['redirect', { command: 'echo hi > /etc/sudoers' }, 'etc-accounts'],
  ['root glob', { command: 'ls /r*' }, 'root-home'],
  ['bare root glob', { command: 'ls /*' }, 'root-home'],
];

/** Look-alikes that must pass the guard (decisions documented in README.md). */
const ALLOWED: [string, unknown][] = [
  ['/etc/hosts', { path: '/etc/hosts' }],
  ['/etc/hostname', { path: '/etc/hostname' }],
  ['passwords.txt in /etc', { path: '/etc/passwords.txt' }],
  ['passwd-generator URL', { url: 'https://example.com/etc/passwd-generator' }],
  ['~/.sshconfig-notes.txt', { path: '~/.sshconfig-notes.txt' }],
  ['~/.ssh_backup_notes.md', { path: '~/.ssh_backup_notes.md' }],
  ['ssh in a file name', { path: 'notes/ssh-setup.md' }],
  ['prose about ssh keys', { content: 'How do I generate ssh keys for GitHub?' }],
  ['sys inside a project', { path: '/home/alice/project/sys/config.ts' }],
  ['proc deeper', { path: '/tmp/proc/x' }],
  ['/rootfs', { path: '/rootfs/etc-notes' }],
  ['/procedures.md', { path: '/procedures.md' }],
  ['/bootstrap', { path: '/bootstrap.sh' }],
  ['/dev/null', { command: 'ls > /dev/null' }],
  ['/dev/stdout', { path: '/dev/stdout' }],
  ['~/.config app settings', { path: '~/.config/app/settings.json' }],
  ['~/.aws/config', { path: '~/.aws/config' }],
  ['home glob does not reach dotfiles', { command: 'ls ~/*' }],
  ['/var/log', { path: '/var/log/syslog' }],
  ['/etc listing', { path: '/etc' }],
  ['word root in prose', { content: 'find the root cause of the bug' }],
  ['tmp glob', { command: 'rm /tmp/*.log' }],
];

describe('guard: protected paths', () => {
  it.each(DENIED)('denies %s', (_name, args, rule) => {
    expect(guardRule(args)).toBe(rule);
  });

  it.each(ALLOWED)('allows %s', (_name, args) => {
    expect(guardRule(args)).toBeUndefined();
  });

  it('has the coverage the brief asks for', () => {
    expect(DENIED.length + ALLOWED.length).toBeGreaterThanOrEqual(80);
  });

  it('reports the argument key path, never needing the value', () => {
    const finding = runGuard(
      { executor: 'fs_read', args: { options: { files: ['a.txt', '~/.ssh/id_rsa'] } } },
      environment,
    );
    expect(finding).toMatchObject({
      kind: 'sensitive-path',
      rule: 'ssh',
      label: '~/.ssh',
      argument: 'options.files[1]',
    });
  });
});

describe('guard: symbolic links', () => {
  const root = mkdtempSync(join(tmpdir(), 'scratchpad-guard-'));
  const etcFolder = readdirSync('/etc').find((name) => {
    try {
      return statSync(join('/etc', name)).isDirectory();
    } catch {
      return false;
    }
  });
  mkdirSync(join(root, 'real'));
  writeFileSync(join(root, 'real', 'notes.txt'), 'x');
  symlinkSync('/etc', join(root, 'etc-link'));
  symlinkSync('/etc/shadow', join(root, 'innocent.txt'));
  if (etcFolder) symlinkSync(join('/etc', etcFolder), join(root, 'sub-link'));
  symlinkSync(join(root, 'etc-link'), join(root, 'chain'));
  const here: GuardEnvironment = { ...environment, cwd: root };
  const rule = (args: unknown) => runGuard({ executor: 'fs_read', args }, here)?.rule;

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('follows a link to a protected folder, through its existing prefix', () => {
    expect(rule({ path: join(root, 'etc-link', 'passwd') })).toBe('etc-accounts');
    expect(rule({ path: 'etc-link/shadow' })).toBe('etc-accounts');
    expect(rule({ path: join(root, 'chain', 'sudoers') })).toBe('etc-accounts');
  });

  it('follows a link to a protected file, even under an innocent name', () => {
    expect(rule({ path: join(root, 'innocent.txt') })).toBe('etc-accounts');
    expect(rule({ path: 'innocent.txt' })).toBe('etc-accounts');
    expect(rule({ command: `cat ${join(root, 'innocent.txt')}` })).toBe('etc-accounts');
  });

  it('applies .. after the link, as the kernel does', () => {
    if (!etcFolder) return;
    expect(rule({ path: `${root}/sub-link/../passwd` })).toBe('etc-accounts');
  });

  it('lets ordinary files and links to them through', () => {
    symlinkSync(join(root, 'real', 'notes.txt'), join(root, 'notes-link'));
    expect(rule({ path: join(root, 'notes-link') })).toBeUndefined();
    expect(rule({ path: join(root, 'real', 'notes.txt') })).toBeUndefined();
  });
});
