import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createScratchpad } from '../src/service/scratchpad.js';
import { openStore } from '../src/stores/open-store.js';
import { CHROMIUM_LAUNCH } from '../src/testing/chromium-launch.js';
import { builtCli } from './helpers/built-cli.js';
import { createUiFixture, NEEDLE, type UiFixture } from './helpers/ui-fixture.js';

/** The page's `document`, as the functions passed to `waitForFunction` use it (the tests' tsconfig has no DOM). */
declare const document: {
  querySelector(
    selector: string,
  ): { getAttribute(name: string): string | null; textContent: string | null } | null;
};

/** Size of the big entry (the issue asks for 200 MB; SCRATCHPAD_UI_MB=1024 for the closing note's figures). */
const MEGABYTES = Number(process.env.SCRATCHPAD_UI_MB ?? 200);
const ONE_MB = 1024 * 1024;
const SHOTS = join(process.cwd(), 'test-results', 'ui');

let home: string;
let fixture: UiFixture;
let server: ChildProcess;
let url: string;
let browser: Browser;
let page: Page;
const responses: Array<{ url: string; bytes: number }> = [];
const pending: Array<Promise<void>> = [];

/** Starts `scratchpad ui` on a free loopback port; resolves with the URL it prints. */
function startUi(): Promise<string> {
  server = spawn(
    process.execPath,
    [builtCli(), '--store', fixture.storeUrl, 'ui', '--port', '0', '--turns', fixture.turnsDir],
    { env: { ...process.env, SCRATCHPAD_TOKEN: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /open (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1] as string);
    };
    server.stdout?.on('data', collect);
    server.stderr?.on('data', collect);
    server.once('exit', (code) => reject(new Error(`scratchpad ui exited with ${code}: ${output}`)));
  });
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  home = mkdtempSync(join(tmpdir(), 'scratchpad-ui-e2e-'));
  fixture = await createUiFixture(home, MEGABYTES);
  url = await startUi();
  browser = await chromium.launch(CHROMIUM_LAUNCH);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // What each request transferred: the response body's size on the wire, headers excluded.
  page.on('requestfinished', (request) => {
    pending.push(
      request
        .sizes()
        .then((sizes) => {
          responses.push({ url: request.url(), bytes: sizes.responseBodySize });
        })
        .catch(() => undefined),
    );
  });
}, 240_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail')
    await shot(`failed-${context.task.name.replace(/\W+/g, '-')}`).catch(() => undefined);
});

afterAll(async () => {
  await browser?.close();
  server?.kill();
  rmSync(home, { recursive: true, force: true });
});

describe('scratchpad ui in Chromium', () => {
  it('lists the sessions and their entries', async () => {
    await page.goto(url);
    await page.getByRole('link', { name: /incident-42/ }).click();
    await page.getByRole('link', { name: 'shell_exec_1' }).waitFor();
    expect(await page.locator('tbody tr').count()).toBe(3);
    await shot('ui-entries');
  });

  it('finds the big entry by full-text search and opens it', async () => {
    await page.getByLabel('Search entries').fill('checksum mismatch shard');
    await page.getByRole('button', { name: 'Search' }).click();
    const hit = page.locator('.hits a', { hasText: 'shell_exec_1' });
    await hit.waitFor({ timeout: 180_000 });
    expect(await page.locator('.hits .snippet').first().textContent()).toContain('checksum mismatch');
    await shot('ui-search');
    await hit.click();
    await page.locator('.row[data-line="1"]').waitFor();
    expect(await page.locator('.row[data-line="1"] .text').textContent()).toContain('request 00000001');
  }, 240_000);

  it('pages to the middle of the entry, by jump and by keyboard', async () => {
    const middle = fixture.needleLine;
    expect(middle).toBeGreaterThan(fixture.big.lines / 2 - 100);
    await page.getByLabel('Jump to line').fill(String(middle));
    await page.getByLabel('Jump to line').press('Enter');
    const needle = page.locator(`.row[data-line="${middle}"]`);
    await needle.waitFor();
    expect(await needle.textContent()).toContain(NEEDLE);
    const viewport = page.getByRole('region', { name: /Lines of shell_exec_1/ });
    await viewport.focus();
    const before = Number(await viewport.getAttribute('data-top'));
    await page.keyboard.press('PageDown');
    await page.waitForFunction(
      (top) => Number(document.querySelector('.viewport')?.getAttribute('data-top')) > top,
      before,
    );
    // Keyboard scrolling is animated: whatever row is on top once it settles, its lines are read and shown.
    await page.waitForFunction(() => {
      const top = Number(document.querySelector('.viewport')?.getAttribute('data-top'));
      const text = document.querySelector(`.row[data-line="${top + 5}"] .text`)?.textContent ?? '';
      return /request \d+/.test(text);
    });
  });

  it('greps the entry, highlights the matches and steps through them', async () => {
    await page.getByLabel('Grep pattern').fill('FATAL|checksum');
    await page.getByRole('button', { name: 'Grep', exact: true }).click();
    await page.locator('.grep-status', { hasText: 'matching' }).waitFor({ timeout: 120_000 });
    const active = page.locator('.row.active');
    await active.waitFor();
    expect(await active.getAttribute('data-line')).toBe(String(fixture.needleLine));
    expect(await active.locator('mark').first().textContent()).toMatch(/FATAL|checksum/);
    await page.getByLabel('Grep pattern').fill('ERROR');
    await page.getByRole('button', { name: 'Grep', exact: true }).click();
    await page.locator('.grep-status', { hasText: /\d+ \/ .*ERROR|matching/ }).waitFor({ timeout: 120_000 });
    const first = Number(await page.locator('.row.active').getAttribute('data-line'));
    await page.getByRole('button', { name: 'Next match' }).click();
    await page.waitForFunction(
      (line) => Number(document.querySelector('.row.active')?.getAttribute('data-line')) > line,
      first,
    );
    await page.locator('.row.active mark').waitFor();
    await shot('ui-entry');
  }, 240_000);

  it('opens a turn and follows a step to its entry', async () => {
    await page.getByRole('link', { name: 'Turns', exact: true }).click();
    await page.locator('.turn-link', { hasText: 'Why did the API return 500s' }).waitFor();
    await shot('ui-turns');
    await page.locator('.turn-link', { hasText: 'Why did the API return 500s' }).click();
    await page.locator('.step[data-step="2"]').waitFor();
    expect(await page.locator('.step[data-step="2"] .verdict').textContent()).toContain('approved by both');
    expect(await page.locator('.step[data-step="2"]').textContent()).toContain('bubblewrap');
    // A step shown inline shows the text the model read, not only its size.
    expect(await page.locator('.step[data-step="3"] .observation-text').textContent()).toContain(
      `${fixture.needleLine}: ${NEEDLE}`,
    );
    await shot('ui-turn');
    await page.locator('.step[data-step="2"] .entry-link').click();
    await page.locator('.row[data-line="1"]').waitFor();
    expect(page.url()).toContain(fixture.big.id);
    await page.locator('.observation-text', { hasText: 'Stored as shell_exec_1' }).waitFor();
  });

  it('draws the context picture', async () => {
    await page.getByRole('link', { name: 'Context', exact: true }).click();
    await page.locator('.totals').waitFor();
    expect(await page.locator('.totals').textContent()).toContain('stored outside the context');
    expect(await page.locator('.chart svg rect.bar.stored').count()).toBe(2);
    await shot('ui-context');
  });

  it('shows a binary entry as hex', async () => {
    await page.goto(`${url}#/entries/incident-42`);
    await page.getByRole('link', { name: 'core-dump-head' }).click();
    await page.locator('.row.hex').first().waitFor();
    expect(await page.locator('.row.hex .gutter').first().textContent()).toBe('00000000');
    expect(await page.locator('.row.hex .text').first().textContent()).toMatch(/^00 25 4a 6f/);
  });

  it('pretty-prints a JSON slice', async () => {
    await page.goto(`${url}#/entries/incident-42`);
    await page.getByRole('link', { name: 'fs_read_1' }).click();
    await page.getByRole('button', { name: 'Slice / JSON / copy' }).click();
    await page.locator('.slice-text', { hasText: '"shards": [' }).waitFor();
    expect(await page.locator('.slice-text').textContent()).toContain('"replicas": 3');
  });

  it('shows a new entry without a reload (live)', async () => {
    await page.goto(`${url}#/entries/build-7`);
    await page.getByRole('link', { name: 'npm-test-output' }).waitFor();
    const scratchpad = createScratchpad({ driver: await openStore(fixture.storeUrl) });
    await scratchpad.write('build-7', 'lint-output', 'no problems');
    await scratchpad.close();
    await page.getByRole('link', { name: 'lint-output' }).waitFor({ timeout: 15_000 });
  });

  it('works in a narrow window', async () => {
    await page.setViewportSize({ width: 420, height: 800 });
    await page.goto(`${url}#/entry/incident-42/${fixture.big.id}?line=${fixture.needleLine}`);
    await page.locator(`.row[data-line="${fixture.needleLine}"]`).waitFor();
    await shot('ui-narrow');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('never transferred more than 1 MB in one response', async () => {
    await Promise.all(pending);
    expect(responses.length).toBeGreaterThan(20);
    const largest = responses.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    console.log(`ui e2e: ${responses.length} responses, largest ${largest.bytes} bytes (${largest.url})`);
    expect(largest.bytes).toBeLessThan(ONE_MB);
  });
});
