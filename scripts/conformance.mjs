#!/usr/bin/env node
// The official MCP conformance suite (@modelcontextprotocol/conformance, server scenarios, every suite) against:
//   1. fixture: test/conformance/fixture-server.mjs over Streamable HTTP, which implements what the scenarios call;
//   2. proxy --url: `scratchpad proxy --url <fixture> --http 127.0.0.1:0`, the fixture as a remote upstream;
//   3. proxy stdio: `scratchpad proxy --http 127.0.0.1:0 -- node fixture-server.mjs --stdio`;
//   4. mcp: `scratchpad mcp --http 127.0.0.1:0`, which has none of the fixture's tools, resources or prompts.
// It prints each target's pass list and fails unless the fixture passes every scenario, each proxy passes every
// scenario the fixture passes, and `scratchpad mcp` passes every scenario that does not call the fixture's items.
// The suite needs Node 22 or later; it is installed from the npm registry into a temporary folder, not a dependency.
//
//   node scripts/conformance.mjs [--keep]       (from a built checkout: npm run build first)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnServer } from './lib/spawn-server.mjs';

const SUITE = '@modelcontextprotocol/conformance@0.1.16';
const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist/cli/main.js');
const fixture = join(root, 'test/conformance/fixture-server.mjs');

/** Scenarios that need no tool, resource or prompt of the suite's own: `scratchpad mcp` must pass each. */
const WITHOUT_FIXTURE = [
  'server-initialize',
  'ping',
  'completion-complete',
  'tools-list',
  'tools-call-error',
  'server-sse-polling',
  'server-sse-multiple-streams',
  'resources-list',
  'dns-rebinding-protection',
];

const [major] = process.versions.node.split('.').map(Number);
if (major < 22) {
  console.error(`conformance: the suite needs Node 22 or later; this is ${process.version}`);
  process.exit(2);
}
if (!existsSync(cli)) {
  console.error('conformance: dist/cli/main.js is missing: run npm run build first');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'scratchpad-conformance-'));
const children = [];
const stopAll = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('exit', () => {
  stopAll();
  if (!process.argv.includes('--keep')) rmSync(work, { recursive: true, force: true });
});

/** Starts a server and resolves with the URL it prints on stderr (`… at http://…/mcp`). */
function start(name, args, env = {}) {
  const { child, url } = spawnServer(args, {
    name,
    cwd: root,
    env: { ...process.env, XDG_DATA_HOME: join(work, `data-${name}`), ...env },
  });
  children.push(child);
  return url;
}

/** Runs every server scenario against `url`; the scenarios passed (no check failed) and failed, by name. */
function runSuite(name, url, suiteBin) {
  const output = join(work, `results-${name}`);
  const run = spawnSync(suiteBin, ['server', '--url', url, '--suite', 'all', '-o', output], {
    encoding: 'utf8',
    timeout: 10 * 60_000,
  });
  if (!existsSync(output)) throw new Error(`the suite wrote no results for ${name}:\n${run.stdout}\n${run.stderr}`);
  const passed = [];
  const failed = [];
  for (const folder of readdirSync(output).sort()) {
    const scenario = folder.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, '');
    const checks = JSON.parse(readFileSync(join(output, folder, 'checks.json'), 'utf8'));
    const failures = checks.filter((check) => check.status === 'FAILURE');
    if (failures.length === 0) passed.push(scenario);
    else failed.push(`${scenario} (${failures.map((check) => check.errorMessage ?? check.id).join('; ')})`);
  }
  return { passed, failed };
}

console.log(`conformance: installing ${SUITE} (Node ${process.version})`);
const install = spawnSync(
  'npm',
  ['install', '--prefix', join(work, 'suite'), '--no-save', '--no-audit', '--no-fund', '--loglevel=error', SUITE],
  { encoding: 'utf8', stdio: ['ignore', 'inherit', 'inherit'] },
);
if (install.status !== 0) process.exit(install.status ?? 1);
const suiteBin = join(work, 'suite/node_modules/.bin/conformance');

const fixtureUrl = await start('fixture', [fixture, '--http', '0']);
const targets = [
  ['fixture', fixtureUrl],
  ['proxy --url', await start('proxy-url', [cli, 'proxy', '--url', fixtureUrl, '--http', '127.0.0.1:0'])],
  [
    'proxy stdio',
    await start('proxy-stdio', [cli, 'proxy', '--http', '127.0.0.1:0', '--', process.execPath, fixture, '--stdio']),
  ],
  ['mcp', await start('mcp', [cli, 'mcp', '--http', '127.0.0.1:0'])],
];

const results = new Map();
for (const [name, url] of targets) {
  const result = runSuite(name, url, suiteBin);
  results.set(name, result);
  console.log(`\n${name} (${url}): ${result.passed.length} scenarios passed, ${result.failed.length} failed`);
  console.log(`  passed: ${result.passed.join(', ')}`);
  if (result.failed.length > 0) console.log(`  failed: ${result.failed.join('\n          ')}`);
}

const problems = [];
const fixtureResult = results.get('fixture');
if (fixtureResult.failed.length > 0) problems.push(`the fixture fails ${fixtureResult.failed.length} scenarios`);
for (const proxy of ['proxy --url', 'proxy stdio']) {
  const passed = new Set(results.get(proxy).passed);
  const missing = fixtureResult.passed.filter((scenario) => !passed.has(scenario));
  if (missing.length > 0) problems.push(`${proxy} fails what the fixture passes: ${missing.join(', ')}`);
}
const mcpPassed = new Set(results.get('mcp').passed);
const mcpMissing = WITHOUT_FIXTURE.filter((scenario) => !mcpPassed.has(scenario));
if (mcpMissing.length > 0) problems.push(`scratchpad mcp fails scenarios that need no fixture: ${mcpMissing.join(', ')}`);

stopAll();
if (problems.length > 0) {
  console.error(`\nconformance: FAILED\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(
  `\nconformance: ok: the proxy passes all ${fixtureResult.passed.length} scenarios its upstream passes, over --url and over stdio; scratchpad mcp passes the ${WITHOUT_FIXTURE.length} that need no fixture`,
);
