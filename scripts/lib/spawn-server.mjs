// Starts a server process and reads the URL it serves from its stderr. One helper for the places that start a
// `scratchpad mcp|proxy --http`, the conformance fixture or the SDK forwarder and connect to it: bench/,
// scripts/conformance.mjs and the tests (types in spawn-server.d.mts).
import { spawn } from 'node:child_process';

/** What a server prints on stderr once it serves: `… at http://host:port/mcp`. */
const SERVED_AT = /\bat (http:\/\/\S+\/mcp)\b/;

/**
 * Spawns `node ...args` (stdout ignored, stderr read) and returns the child at once, with `url`: the URL it prints
 * on stderr when it serves. `url` rejects with what it printed when the child exits first or prints none within
 * `startTimeoutMs` (60 s by default); the child is not killed then, which stays the caller's to do.
 */
export function spawnServer(args, { name = 'server', cwd, env = process.env, startTimeoutMs = 60_000 } = {}) {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const url = new Promise((resolve, reject) => {
    let stderr = '';
    let served = false;
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start in ${startTimeoutMs / 1000} s:\n${stderr}`)),
      startTimeoutMs,
    );
    // Read stderr to its end even once served, so that a full pipe never blocks the child.
    child.stderr.on('data', (chunk) => {
      if (served) return;
      stderr += chunk.toString();
      const match = SERVED_AT.exec(stderr);
      if (match) {
        served = true;
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!served) reject(new Error(`${name} exited (${signal ?? code}) before it served:\n${stderr}`));
    });
  });
  return { child, url };
}
