import { buildPreview, PREVIEW_BUILDERS } from '../../dist/context/previews/index.js';
import { logBuffer } from './log-text.js';
import { median } from './measure.js';

const REPETITIONS = 7;

/**
 * Times the default (`salient`) preview against seed 000's head+tail on large synthetic outputs (a log and a
 * pretty-printed JSON array of records), paired and alternated. The builder runs on the event loop, so its time is
 * the stall it causes; CPU time (user + system of this process) is reported beside wall time because wall time
 * swings with the machine's load.
 */
export async function timePreviews(sizesInMegabytes = [0.5, 1, 10, 100]) {
  const rows = [];
  for (const megabytes of sizesInMegabytes) {
    const size = Math.round(megabytes * 1024 * 1024);
    for (const [label, bytes] of [
      ['log', logBuffer(size)],
      ['JSON records', Buffer.from(jsonRecords(size))],
    ]) {
      const text = bytes.toString('utf8');
      const input = { kind: 'text', text, bytes, context: { task: 'Find the errors.' } };
      const times = { salient: [], 'head-tail': [] };
      const cpu = { salient: [], 'head-tail': [] };
      for (let repetition = 0; repetition < REPETITIONS; repetition++) {
        const order = repetition % 2 === 0 ? ['salient', 'head-tail'] : ['head-tail', 'salient'];
        for (const name of order) {
          const startedCpu = process.cpuUsage();
          const started = performance.now();
          buildPreview(PREVIEW_BUILDERS[name], input);
          times[name].push(performance.now() - started);
          const used = process.cpuUsage(startedCpu);
          cpu[name].push((used.user + used.system) / 1000);
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      rows.push({
        label,
        megabytes,
        defaultMs: round(median(times.salient)),
        defaultMaxMs: round(Math.max(...times.salient)),
        defaultCpuMs: round(median(cpu.salient)),
        headTailMs: round(median(times['head-tail'])),
        headTailCpuMs: round(median(cpu['head-tail'])),
        ratio: round(median(times.salient) / median(times['head-tail'])),
      });
    }
  }
  return { repetitions: REPETITIONS, rows };
}

/** A pretty-printed JSON array of flat records, about `size` characters. */
function jsonRecords(size) {
  const parts = ['['];
  let length = 1;
  for (let index = 0; length < size; index++) {
    const status = index % 97 === 0 ? 'failed' : 'ok';
    const record = `\n  {\n    "id": ${index},\n    "name": "item-${index}",\n    "status": "${status}",\n    "score": ${(index * 7919) % 1000}\n  },`;
    parts.push(record);
    length += record.length;
  }
  parts[parts.length - 1] = parts[parts.length - 1].slice(0, -1);
  parts.push('\n]\n');
  return parts.join('');
}

function round(value) {
  return Math.round(value * 100) / 100;
}
