import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_LAUNCH } from '../src/testing/chromium-launch.js';
import { builtCli } from './helpers/built-cli.js';
import { runCliAsync } from './helpers/run-cli-async.js';
import { createUiFixture, type UiFixture } from './helpers/ui-fixture.js';

/**
 * The inspector's manners, in Chromium: shortcuts act only when no text box has focus, Esc leaves a box, `n`/`N`
 * step through grep hits after a grep, sizes read as the CLI prints them, and a wildcard bind prints addresses a
 * browser opens. A small fixture (2 MB log: an `ERROR` line every 9,973 lines and one `FATAL` line).
 */
const MEGABYTES = 2;

/** The page's `document`, as the functions passed to `evaluate` use it (the tests' tsconfig has no DOM). */
declare const document: {
  activeElement: { getAttribute(name: string): string | null } | null;
};

let home: string;
let fixture: UiFixture;
let browser: Browser;
let page: Page;
const servers: ChildProcess[] = [];

/** Starts `scratchpad ui` with `extra` arguments; resolves with every line it printed up to its `open` line. */
function startUi(extra: string[]): Promise<string[]> {
  const server = spawn(
    process.execPath,
    [builtCli(), '--store', fixture.storeUrl, 'ui', '--port', '0', '--turns', fixture.turnsDir, ...extra],
    { env: { ...process.env, SCRATCHPAD_TOKEN: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  servers.push(server);
  return new Promise((resolve, reject) => {
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      // The `open` line, and the line after it when the bind is a wildcard.
      const lines = output.split('\n');
      const open = lines.findIndex((line) => line.includes('scratchpad ui: open '));
      // (A server that prints the wildcard address itself prints nothing more: its line is all there is to check.)
      const wildcardPrinted = open !== -1 && (lines[open] as string).includes('0.0.0.0:');
      const more = extra.includes('0.0.0.0') && interfaceAddresses().length > 0 && !wildcardPrinted ? 1 : 0;
      if (open !== -1 && lines.length > open + 1 + more) resolve(lines.slice(0, open + 1 + more));
    };
    server.stdout?.on('data', collect);
    server.stderr?.on('data', collect);
    server.once('exit', (code) => reject(new Error(`scratchpad ui exited with ${code}: ${output}`)));
  });
}

/** This machine's IPv4 addresses other than loopback. */
function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .filter((address) => address.family === 'IPv4' && !address.internal)
    .map((address) => address.address);
}

/** The URLs in `text`. */
function urlsIn(text: string): string[] {
  return [...text.matchAll(/http:\/\/\S+/g)].map((match) => match[0]);
}

/** The name of the element that has focus (its `aria-label` or `name`), or `body`. */
function focused(): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement;
    return active?.getAttribute('aria-label') ?? active?.getAttribute('name') ?? 'body';
  });
}

async function activeLine(): Promise<number> {
  return Number(await page.locator('.row.active').getAttribute('data-line'));
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'scratchpad-ui-manners-'));
  fixture = await createUiFixture(home, MEGABYTES);
  browser = await chromium.launch(CHROMIUM_LAUNCH);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  for (const server of servers) server.kill();
  rmSync(home, { recursive: true, force: true });
});

describe('scratchpad ui manners in Chromium', () => {
  let url: string;
  /** The lines of the grep hits for `ERROR|FATAL`, in order. */
  let hits: number[];

  beforeAll(async () => {
    url = urlsIn((await startUi([])).join('\n'))[0] as string;
    const expected = Math.floor(fixture.big.lines / 9973) + 1;
    await page.goto(`${url}#/entry/incident-42/${fixture.big.id}`);
    await page.locator('.row[data-line="1"]').waitFor();
    await page.getByLabel('Grep pattern').fill('ERROR|FATAL');
    await page.getByLabel('Grep pattern').press('Enter');
    await page.locator('.grep-status', { hasText: /^1 \// }).waitFor({ timeout: 60_000 });
    hits = [];
    for (let index = 0; index < expected; index++) {
      hits.push(await activeLine());
      await page.getByRole('button', { name: 'Next match' }).click();
      await page
        .locator('.grep-status', { hasText: new RegExp(`^${((index + 1) % expected) + 1} /`) })
        .waitFor();
    }
    expect(hits.length).toBeGreaterThanOrEqual(3);
    expect(new Set(hits).size).toBe(hits.length);
  }, 120_000);

  it('after a grep, n and N step through the hits and type nothing into the grep box', async () => {
    await page.goto(`${url}#/entries/incident-42`);
    await page.goto(`${url}#/entry/incident-42/${fixture.big.id}`);
    await page.locator('.row[data-line="1"]').waitFor();
    await page.getByLabel('Grep pattern').fill('ERROR|FATAL');
    await page.getByLabel('Grep pattern').press('Enter');
    await page.locator('.grep-status', { hasText: /^1 \// }).waitFor();
    expect(await activeLine()).toBe(hits[0]);
    await page.keyboard.press('n');
    await page.locator('.grep-status', { hasText: /^2 \// }).waitFor();
    expect(await activeLine()).toBe(hits[1]);
    await page.keyboard.press('n');
    await page.locator('.grep-status', { hasText: /^3 \// }).waitFor();
    await page.keyboard.press('Shift+N');
    await page.locator('.grep-status', { hasText: /^2 \// }).waitFor();
    expect(await activeLine()).toBe(hits[1]);
    expect(await page.getByLabel('Grep pattern').inputValue()).toBe('ERROR|FATAL');
  });

  it('shortcuts act only when no text box has focus, and g then digits jump', async () => {
    // In the grep box, n and g are letters of the pattern.
    await page.getByLabel('Grep pattern').focus();
    await page.keyboard.press('End');
    await page.keyboard.type('ng');
    expect(await page.getByLabel('Grep pattern').inputValue()).toBe('ERROR|FATALng');
    await page.getByLabel('Grep pattern').fill('ERROR|FATAL');
    // Esc leaves the box: the same keys are shortcuts again.
    await page.keyboard.press('Escape');
    expect(await focused()).toBe('body');
    await page.keyboard.press('g');
    expect(await focused()).toBe('Jump to line');
    await page.keyboard.type('25');
    await page.keyboard.press('Enter');
    await page.locator('.row.active[data-line="25"]').waitFor();
    expect(await page.getByLabel('Jump to line').inputValue()).toBe('25');
    expect(await page.getByLabel('Grep pattern').inputValue()).toBe('ERROR|FATAL');
    // After the jump the box is left too: n steps to the next hit instead of typing.
    expect(await focused()).toBe('body');
    await page.keyboard.press('n');
    await page.locator('.grep-status', { hasText: /^3 \// }).waitFor();
    // A checkbox takes no text: with it focused, n is still a shortcut.
    await page.getByText('ignore case').click();
    await page.keyboard.press('n');
    await page.locator('.grep-status', { hasText: new RegExp(`^${hits.length > 3 ? 4 : 1} /`) }).waitFor();
  });

  it('Esc leaves the session search box too', async () => {
    await page.goto(`${url}#/entries/incident-42`);
    await page.getByLabel('Search entries').click();
    expect(await focused()).toBe('Search entries');
    await page.keyboard.press('Escape');
    expect(await focused()).toBe('body');
  });

  it('shows a size as the CLI prints it', async () => {
    const listed = await runCliAsync(
      builtCli(),
      ['--store', fixture.storeUrl, '--session', 'incident-42', 'list'],
      { env: { ...process.env } },
    );
    expect(listed.code).toBe(0);
    const row = listed.stdout.split('\n').find((line) => line.startsWith('shell_exec_1'));
    const cliSize = row?.split(/\s{2,}/)[2];
    expect(cliSize).toMatch(/^\d+(\.\d)? MB$/);
    await page.goto(`${url}#/entries/incident-42`);
    const uiRow = page.locator('tbody tr', { has: page.getByRole('link', { name: 'shell_exec_1' }) });
    await uiRow.waitFor();
    expect(await uiRow.locator('td.number').first().textContent()).toBe(cliSize);
  });
});

describe('scratchpad ui --host 0.0.0.0', () => {
  it('prints addresses a browser opens: loopback first, then each interface', async () => {
    const printed = (await startUi(['--host', '0.0.0.0'])).join('\n');
    const urls = urlsIn(printed);
    expect(printed).not.toContain('0.0.0.0:');
    const port = new URL(urls[0] as string).port;
    expect(urls[0]).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/#token=[0-9a-f]+$`));
    expect(urls.slice(1).map((printedUrl) => new URL(printedUrl).hostname)).toEqual(interfaceAddresses());
    for (const printedUrl of urls) {
      const other = await browser.newPage();
      await other.goto(printedUrl);
      await other.getByRole('link', { name: /incident-42/ }).waitFor();
      await other.close();
    }
  }, 60_000);
});
