import { describe, expect, it } from 'vitest';
import { spawnServer } from '../scripts/lib/spawn-server.mjs';

// scripts/lib/spawn-server.mjs: the one way bench/, scripts/conformance.mjs and the proxy tests start a server
// and learn its URL.
describe('spawnServer', () => {
  it('resolves with the URL the process prints on stderr once it serves', async () => {
    const { child, url } = spawnServer([
      '-e',
      "process.stderr.write('starting\\n'); setTimeout(() => process.stderr.write('serving at http://127.0.0.1:4321/mcp\\n'), 10); setInterval(() => {}, 1000);",
    ]);
    try {
      await expect(url).resolves.toBe('http://127.0.0.1:4321/mcp');
    } finally {
      child.kill();
    }
  });

  it('rejects with what the process printed when it exits before it serves', async () => {
    const { url } = spawnServer(['-e', "process.stderr.write('no port free\\n'); process.exit(3);"], {
      name: 'fixture',
    });
    await expect(url).rejects.toThrow('fixture exited (3) before it served:\nno port free');
  });
});
