import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeRequest } from '../src/testing/fake-servers/index.js';
import { startFakeOpenAI } from '../src/testing/fake-servers/index.js';
import { builtCli } from './helpers/built-cli.js';
import { runCliAsync } from './helpers/run-cli-async.js';
import { TEST_PATH } from './helpers/test-path.js';

/**
 * Issue 26 through `scratchpad run`: a step that plants a repository in the working directory is reported as
 * refused in the model's observation, the progress line and the turn log, and the repository is moved aside before
 * the user's next `git` can act on it.
 */
let cli: string;
let root: string;

beforeAll(() => {
  cli = builtCli();
  root = mkdtempSync(join(tmpdir(), 'scratchpad-git-cli-'));
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a planted repository through the real CLI (real bubblewrap, real git)', () => {
  it('is refused in the observation, the progress line and the turn log, and moved aside', async () => {
    const home = join(root, 'home');
    const work = join(home, 'work');
    const canary = join(root, 'canary');
    mkdirSync(work, { recursive: true });
    mkdirSync(join(home, '.config', 'scratchpad'), { recursive: true });
    writeFileSync(
      join(home, '.config', 'scratchpad', 'config.toml'),
      '[runtime]\ncap_steps = 5\n\n[runtime.llm.fast]\nprovider = "openai"\nmodel = "m"\n',
    );
    const command =
      'mkdir -p .git/objects .git/refs && echo "ref: refs/heads/main" > .git/HEAD && ' +
      `printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = "touch ${canary}"\\n' > .git/config && echo planted`;
    const observations: string[] = [];
    const server = await startFakeOpenAI(
      [
        () => ({ toolCalls: [{ id: 'call_0', name: 'shell_exec', arguments: { command } }] }),
        (request: FakeRequest) => {
          const messages = request.body.messages as Array<{ content: unknown }>;
          observations.push(String(messages[messages.length - 1]?.content ?? ''));
          return 'done';
        },
      ],
      { models: ['m'] },
    );
    try {
      const env = {
        PATH: TEST_PATH,
        HOME: home,
        XDG_DATA_HOME: join(home, '.local', 'share'),
        XDG_CONFIG_HOME: join(home, '.config'),
        OPENAI_API_KEY: 'test',
        OPENAI_BASE_URL: server.baseURL,
      };
      const result = await runCliAsync(cli, ['--json', 'run', 'set up git', '--provider', 'openai'], {
        env,
        cwd: work,
      });
      expect(observations[0]).toMatch(/Refused: shell_exec changed git metadata in a write root/);
      expect(observations[0]).toContain(`${join(work, '.git')} created: moved aside to`);
      expect(result.stderr).toMatch(
        /step 1 shell_exec .* → refused · .*Refused: shell_exec changed git metadata/,
      );
      const record = JSON.parse(result.stdout);
      expect(record.steps[0]).toMatchObject({ outcome: 'refused', refused: 'git', sandbox: 'bubblewrap' });
      expect(String(record.steps[0].result.error)).toMatch(/^Refused: shell_exec changed git metadata/);
      const turns = join(home, '.local', 'share', 'scratchpad', 'turns');
      const logged = readdirSync(turns).map((file) => readFileSync(join(turns, file), 'utf8'));
      expect(logged.join('\n')).toContain('"refused":"git"');
    } finally {
      await server.close();
    }
    expect(existsSync(join(work, '.git'))).toBe(false);
    try {
      execFileSync('git', ['status'], { cwd: work, env: { PATH: TEST_PATH, HOME: home }, stdio: 'pipe' });
    } catch {
      // Not a repository any more: exactly the point.
    }
    expect(existsSync(canary)).toBe(false);
  }, 120_000);
});
