import { describe, expect, it } from 'vitest';
import { findDestructiveCommand, isDangerousTarget } from './destructive-commands.js';
import { type GuardEnvironment, runGuard } from './guard.js';

const environment: GuardEnvironment = { home: '/home/alice', user: 'alice', cwd: '/home/alice/project' };

function shellVerdict(args: unknown, cwd?: string) {
  return runGuard(
    { executor: 'shell_exec', capabilities: ['code:exec'], args, ...(cwd ? { cwd } : {}) },
    environment,
  );
}

/** [description, command, expected rule]: each must be denied for a `code:exec` executor. */
const DENIED: [string, string, string][] = [
  ['rm -rf /', 'rm -rf /', 'recursive-delete'],
  ['flag order -fr', 'rm -fr /', 'recursive-delete'],
  ['separate flags', 'rm -r -f /', 'recursive-delete'],
  ['long flags', 'rm --recursive --force /', 'recursive-delete'],
  ['capital R', 'rm -Rf /', 'recursive-delete'],
  ['recursive without force', 'rm -r /', 'recursive-delete'],
  ['root glob', 'rm -rf /*', 'recursive-delete'],
  ['root dot glob', 'rm -rf /.*', 'recursive-delete'],
  ['tilde', 'rm -rf ~', 'recursive-delete'],
  ['tilde slash', 'rm -rf ~/', 'recursive-delete'],
  ['home glob', 'rm -rf ~/*', 'recursive-delete'],
  ['$HOME', 'rm -rf $HOME', 'recursive-delete'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax under test, not a template
  ['quoted ${HOME}', 'rm -rf "${HOME}"', 'recursive-delete'],
  ['home by path', 'rm -rf /home/alice', 'recursive-delete'],
  ['/home', 'rm -rf /home', 'recursive-delete'],
  ['system folder', 'rm -rf /usr', 'recursive-delete'],
  ['system subfolder', 'rm -Rf /var/lib', 'recursive-delete'],
  ['sudo', 'sudo rm -rf /', 'recursive-delete'],
  ['sudo with user', 'sudo -u root rm -rf /*', 'recursive-delete'],
  ['no-preserve-root', 'rm -rf --no-preserve-root /', 'no-preserve-root'],
  ['env prefix', 'env FOO=1 rm -rf /', 'recursive-delete'],
  ['assignment prefix', 'FOO=bar rm -rf /', 'recursive-delete'],
  ['nohup background', 'nohup rm -rf / &', 'recursive-delete'],
  ['after ;', 'echo ok; rm -rf /', 'recursive-delete'],
  ['after &&', 'true && rm -rf /', 'recursive-delete'],
  ['after ||', 'false || rm -rf ~', 'recursive-delete'],
  ['after pipe', 'yes | rm -rf /', 'recursive-delete'],
  ['no spaces around ;', 'ls;rm -rf /', 'recursive-delete'],
  ['bash -c single quotes', "bash -c 'rm -rf /'", 'recursive-delete'],
  ['sh -c double quotes', 'sh -c "rm -rf /*"', 'recursive-delete'],
  ['eval', 'eval "rm -rf /"', 'recursive-delete'],
  ['full path', '/bin/rm -rf /', 'recursive-delete'],
  ['backslash alias bypass', '\\rm -rf /', 'recursive-delete'],
  ['empty quotes inside the name', "r''m -rf /", 'recursive-delete'],
  ['backslash inside the name', 'r\\m -rf /', 'recursive-delete'],
  ['ANSI-C hex name', "$'\\x72\\x6d' -rf /", 'recursive-delete'],
  ['extra spaces', 'rm   -rf    //', 'recursive-delete'],
  ['tabs', 'rm\t-rf\t/', 'recursive-delete'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax under test, not a template
  ['$IFS', 'rm${IFS}-rf${IFS}/', 'recursive-delete'],
  ['line continuation', 'rm -rf \\\n /', 'recursive-delete'],
  ['traversal to root', 'rm -rf /tmp/../', 'recursive-delete'],
  ['slash dot', 'rm -rf /.', 'recursive-delete'],
  ['end of options', 'rm -rf -- /', 'recursive-delete'],
  ['cd then glob', 'cd / && rm -rf *', 'recursive-delete'],
  ['cd home then glob', 'cd && rm -rf ./*', 'recursive-delete'],
  ['unknown variable', 'rm -rf $UNSET_DIR/', 'recursive-delete'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax under test, not a template
  ['unknown variable then glob', 'rm -rf "${TARGET}"/*', 'recursive-delete'],
  ['command substitution', 'rm -rf "$(echo /)"', 'recursive-delete'],
  ['backtick substitution', 'rm -rf `echo /`', 'recursive-delete'],
  ['xargs', 'echo / | xargs rm -rf', 'recursive-delete'],
  ['find -delete', 'find / -delete', 'recursive-delete'],
  ['find -exec rm', 'find ~ -type f -exec rm -f {} \\;', 'recursive-delete'],
  ['python rmtree', `python3 -c "import shutil; shutil.rmtree('/')"`, 'recursive-delete'],
  ['python os.system', `python3 -c "import os; os.system('rm -rf ~')"`, 'recursive-delete'],
  ['node rmSync', `node -e "require('fs').rmSync(process.env.HOME, {recursive: true})"`, 'recursive-delete'],
  ['mkfs.ext4', 'mkfs.ext4 /dev/sdb1', 'filesystem-format'],
  ['mkfs -t', 'sudo mkfs -t ext4 /dev/xvdb', 'filesystem-format'],
  ['wipefs', 'wipefs -a /dev/vdb', 'filesystem-format'],
  ['dd to disk', 'dd if=/dev/zero of=/dev/sda bs=1M', 'raw-device-write'],
  ['dd to sd card', 'dd if=image.iso of=/dev/mmcblk0 status=progress', 'raw-device-write'],
  ['redirect to nvme', 'cat /dev/urandom > /dev/nvme0n1', 'raw-device-write'],
  ['tee to disk', 'echo x | sudo tee /dev/mmcblk0', 'raw-device-write'],
  ['classic fork bomb', ':(){ :|:& };:', 'fork-bomb'],
  ['fork bomb without spaces', ':(){:|:&};:', 'fork-bomb'],
  ['named fork bomb', 'bomb(){ bomb|bomb& }; bomb', 'fork-bomb'],
  ['function keyword fork bomb', 'function f { f | f & }; f', 'fork-bomb'],
  ['perl fork bomb', 'perl -e "fork while fork"', 'fork-bomb'],
  ['python fork loop', 'python3 -c "import os\nwhile True: os.fork()"', 'fork-bomb'],
  ['chmod -R 777 /', 'chmod -R 777 /', 'recursive-permissions'],
  ['chmod --recursive', 'chmod --recursive 0777 /', 'recursive-permissions'],
  ['chmod combined flags', 'chmod -fR 755 /*', 'recursive-permissions'],
  ['chmod symbolic on system folder', 'chmod -R a+rwx /usr', 'recursive-permissions'],
  ['chown -R /', 'chown -R nobody:nogroup /', 'recursive-permissions'],
  ['chmod home', 'chmod -R 700 ~', 'recursive-permissions'],
  ['mentioned in echo (quotes are removed first)', 'echo "never run rm -rf /"', 'recursive-delete'],
  ['mkfs on an image file', 'mkfs.ext4 ./disk.img', 'filesystem-format'],
  ['base64 into sh', 'echo cm0gLXJmIC8K | base64 -d | sh', 'decode-and-execute'],
  ['base64 into bash -c', 'bash -c "$(echo cm0gLXJmIC8K | base64 --decode)"', 'decode-and-execute'],
];

/** Look-alikes that must run. */
const ALLOWED: [string, string][] = [
  ['build folder', 'rm -rf ./build'],
  ['several project folders', 'rm -rf build dist coverage'],
  ['tmp folder', 'rm -rf /tmp/scratch-123'],
  ['tmp contents after cd', 'mkdir -p /tmp/x && cd /tmp/x && rm -rf *'],
  ['home subfolder', 'rm -rf ~/projects/old-site'],
  ['home cache', 'rm -rf $HOME/.cache/pip'],
  ['variable with a suffix', 'rm -rf "$TMPDIR/build"'],
  ['non-recursive root file', 'rm -f /tmp/x.log'],
  ['node_modules', 'rm -r node_modules'],
  ['git rm', 'git rm -r --cached build'],
  ['word rm in prose', 'echo "rm is a command"'],
  ['find -delete in project', "find . -name '*.pyc' -delete"],
  ['find -delete in tmp', 'find /tmp/cache -mtime +7 -delete'],
  ['find without delete', 'find / -name "*.conf" -type f'],
  ['dd to image file', 'dd if=/dev/zero of=./disk.img bs=1M count=10'],
  ['dd to /dev/null', 'dd if=disk.img of=/dev/null'],
  ['redirect to /dev/null', 'make > /dev/null 2>&1'],
  ['chmod project', 'chmod -R 755 ./public'],
  ['chmod one file', 'chmod 644 ~/notes.txt'],
  ['chmod remove read from one file', 'chmod -r ./secret.txt'],
  ['chown project', 'chown -R alice ./data'],
  ['list root', 'ls -la /'],
  ['disk usage', 'du -sh /var/log'],
  ['decode without execution', 'echo aGVsbG8= | base64 -d'],
  ['grep', 'grep -rn TODO src/'],
  ['mkdir', 'mkdir -p ~/projects/new && cd ~/projects/new'],
  ['function that is not a bomb', 'greet(){ echo hi; }; greet'],
  ['rmtree of a project folder', `python3 -c "import shutil; shutil.rmtree('build')"`],
];

describe('guard: destructive commands (code:exec)', () => {
  it.each(DENIED)('denies %s', (_name, command, rule) => {
    const finding = shellVerdict({ command });
    expect(finding?.kind).toBe('destructive-command');
    expect(finding?.rule).toBe(rule);
  });

  it.each(ALLOWED)('allows %s', (_name, command) => {
    expect(shellVerdict({ command })).toBeUndefined();
  });

  it('has the coverage the brief asks for', () => {
    expect(DENIED.length).toBeGreaterThanOrEqual(40);
  });

  it('uses the working directory of the action and of its cwd argument', () => {
    expect(shellVerdict({ command: 'rm -rf .' }, '/home/alice')?.rule).toBe('recursive-delete');
    expect(shellVerdict({ command: 'rm -rf ..' }, '/home/alice/project')?.rule).toBe('recursive-delete');
    expect(shellVerdict({ command: 'rm -rf *', cwd: '/' })?.rule).toBe('recursive-delete');
    expect(shellVerdict({ command: 'rm -rf *', cwd: '/tmp/work' })).toBeUndefined();
    expect(shellVerdict({ command: 'rm -rf .' }, '/home/alice/project')).toBeUndefined();
  });

  it('reads an argv array as a command line', () => {
    expect(shellVerdict({ argv: ['rm', '-rf', '/'] })?.rule).toBe('recursive-delete');
    expect(shellVerdict({ argv: ['rm', '-rf', 'build'] })).toBeUndefined();
  });

  it('applies only to code:exec executors: other executors may carry such text', () => {
    const write = (content: string) =>
      runGuard(
        { executor: 'fs_write', capabilities: ['fs:write'], args: { path: 'notes.md', content } },
        environment,
      );
    expect(write('Never run rm -rf / on a server.')).toBeUndefined();
    expect(write(':(){ :|:& };:')).toBeUndefined();
  });
});

describe('isDangerousTarget', () => {
  it.each([
    ['/', true],
    ['/etc', true],
    ['/etc/nginx', false],
    ['/home/alice', true],
    ['/home/alice/', true],
    ['/home/alice/*', true],
    ['/home/alice/work', false],
    ['/*/bin', true],
    ['$X', true],
    ['$X/build', false],
  ])('%s → %s', (target, expected) => {
    expect(isDangerousTarget(target, '/home/alice/project', '/home/alice')).toBe(expected);
  });

  it('is direct to call on a command string', () => {
    expect(findDestructiveCommand('rm -rf /', { home: '/h', user: 'u', cwd: '/tmp' })?.rule).toBe(
      'recursive-delete',
    );
  });
});
