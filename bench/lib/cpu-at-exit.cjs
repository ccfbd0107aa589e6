// Preloaded (`node -r`) by bench/cli-start.js into each process it times: at exit, writes the CPU time the process
// used (user + system, from its start) to file descriptor 3, as milliseconds. CPU time barely moves when other
// processes share the machine; wall time does.
const { writeSync } = require('node:fs');

process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  try {
    writeSync(3, `${(user + system) / 1000}\n`);
  } catch {
    // No descriptor 3: run outside the bench.
  }
});
