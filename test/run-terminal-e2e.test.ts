import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './helpers/built-cli.js';
import { createRunHome, type RunHome } from './helpers/run-home.js';

/** A hostile answer: an OSC 52 clipboard write, a screen clear, a C1 CSI, a carriage return, DEL, a tab. */
const ANSWER = 'Done.\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2J\u009b31mred\rover\u007f\tend\nsecond line';
/** The same answer as a terminal shows it: every control character but tab and newline as `?`. */
const SHOWN = 'Done.?]52;c;cm0gLXJmIH4=??[2J?31mred?over?\tend\nsecond line';

/** True when util-linux `script` can give a command a pseudo-terminal here. */
function scriptAvailable(): boolean {
  try {
    execFileSync('script', ['-qfec', 'test -t 1', '/dev/null'], { stdio: ['ignore', 'ignore', 'ignore'] });
    return true;
  } catch {
    return false;
  }
}

let home: RunHome;
let cli: string;

beforeAll(() => {
  cli = builtCli();
  home = createRunHome('scratchpad-terminal-');
}, 120_000);
afterAll(() => home.close());

const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * Runs `scratchpad run` with its stdout on a pseudo-terminal (util-linux `script`), stderr into a file, and returns
 * what the terminal received (the pty turns `\n` into `\r\n`).
 */
function runOnTerminal(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  const stderrFile = join(home.root, 'terminal-stderr.txt');
  const command = `${[process.execPath, cli, ...args].map(quote).join(' ')} 2>${quote(stderrFile)}`;
  return new Promise((resolve, reject) => {
    const child = execFile(
      'script',
      ['-qfec', command, '/dev/null'],
      { env, cwd: home.workdir, timeout: 60_000 },
      (error, stdout) => {
        const code = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
        if (code !== 0) reject(new Error(`exit ${code}: ${readFileSync(stderrFile, 'utf8')}`));
        else resolve({ code, output: stdout });
      },
    );
    child.stdin?.end();
  });
}

describe('scratchpad run: the answer on a terminal and in a pipe', () => {
  it('a pipe gets the exact characters of the answer', async () => {
    const server = await home.ollama([ANSWER]);
    const result = await home.cli(['--db', join(home.root, 'pipe.db'), 'run', 'say it', '--quiet'], {
      OLLAMA_HOST: server.url,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(Buffer.from(result.stdout)).toEqual(Buffer.from(`${ANSWER}\n`));
  });

  it.skipIf(!scriptAvailable())(
    'a terminal sees control characters as ?, tab and newline kept; --raw gives it the exact characters',
    async () => {
      const server = await home.ollama([ANSWER, ANSWER]);
      const args = ['--db', join(home.root, 'terminal.db'), 'run', 'say it', '--quiet'];
      const env = home.env({ OLLAMA_HOST: server.url });
      const shown = await runOnTerminal(args, env);
      expect(shown.output).toBe(`${SHOWN}\n`.replaceAll('\n', '\r\n'));
      expect(shown.output).not.toMatch(/[\u001b\u0007\u009b\u007f]/);
      const raw = await runOnTerminal([...args, '--raw'], env);
      expect(raw.output).toBe(`${ANSWER}\n`.replaceAll('\n', '\r\n'));
      expect(server.remaining).toBe(0);
    },
  );
});
