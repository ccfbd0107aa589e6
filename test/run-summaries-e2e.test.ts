import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUMMARIZER_SYSTEM_PROMPT } from '../packages/runtime/src/summarizer/model-summarizer.js';
import type { FakeRequest, FakeServer } from '../src/testing/fake-servers/index.js';
import { chatRequests, createRunHome, lastToolResult, type RunHome } from './helpers/run-home.js';

let home: RunHome;
const ERROR_LINE = '2026-05-01T10:20:00Z ERROR billing export failed: quota exceeded on /var/spool/export';
const SUMMARY = 'A service log of 1,501 lines; one ERROR: billing export failed (quota exceeded).';

beforeAll(() => {
  home = createRunHome('scratchpad-summaries-');
  const lines: string[] = [];
  for (let index = 0; index < 1500; index++)
    lines.push(`2026-05-01T10:00:${String(index % 60).padStart(2, '0')}Z INFO request ${index} served`);
  lines.splice(750, 0, ERROR_LINE);
  // About 68 KB: inside the summary's default range (50 KB to 1 MB), and under its 24,000-token input budget.
  writeFileSync(join(home.workdir, 'service.log'), `${lines.join('\n')}\n`);
}, 120_000);
afterAll(() => home.close());

/** Whether a chat request is the summarizer's (its system prompt), not the planner's. */
function isSummaryRequest(request: FakeRequest): boolean {
  const messages = request.body.messages as Array<{ role: string; content: string }>;
  return messages.some(
    (message) => message.role === 'system' && message.content === SUMMARIZER_SYSTEM_PROMPT,
  );
}

/** A config whose fast tier is the fake OpenAI-compatible server, with `summaries` as its `[runtime.summaries]`. */
function config(name: string, server: FakeServer, summaries: string): string {
  return home.config(
    name,
    `[runtime.llm.fast]
provider = "openai"
model = "local-model"
base_url = "${server.baseURL}"
api_key_env = "FAST_KEY"

[runtime.summaries]
${summaries}
`,
  );
}

async function run(configPath: string) {
  const result = await home.cli(
    ['--json', 'run', 'read service.log and tell me what failed', '--config', configPath, '--quiet'],
    { FAST_KEY: 'test' },
  );
  return { ...result, record: JSON.parse(result.stdout) };
}

describe('[runtime.summaries] in scratchpad run', () => {
  it('on: the summarizing tier is asked once for the large output, and the model reads its summary', async () => {
    const seen: { observation?: string; summaryInput?: string } = {};
    const server = await home.openai([
      { toolCalls: [{ name: 'fs_read', arguments: { path: 'service.log' } }] },
      (request) => {
        expect(isSummaryRequest(request)).toBe(true);
        seen.summaryInput = JSON.stringify(request.body.messages);
        return SUMMARY;
      },
      (request) => {
        expect(isSummaryRequest(request)).toBe(false);
        seen.observation = lastToolResult(request);
        return 'The billing export failed: quota exceeded.';
      },
    ]);
    const { record, code } = await run(config('on', server, 'enabled = true'));
    expect(code).toBe(0);
    expect(record.final_message).toBe('The billing export failed: quota exceeded.');
    expect(server.remaining).toBe(0);
    const requests = chatRequests(server.requests);
    expect(requests).toHaveLength(3);
    expect(requests.filter(isSummaryRequest)).toHaveLength(1);
    // The summarizer got the whole output (under max_input_tokens) and the task.
    expect(seen.summaryInput?.includes(ERROR_LINE)).toBe(true);
    expect(seen.summaryInput?.includes('its head and tail, the middle left out')).toBe(false);
    expect(seen.summaryInput?.includes("The agent's task: read service.log and tell me what failed")).toBe(
      true,
    );
    expect(seen.observation).toContain(`Summary (written by a model from the output; check what matters`);
    expect(seen.observation).toContain(SUMMARY);
    expect(seen.observation).toContain('scratchpad_read');
    expect(record.steps[0].result).toMatchObject({ offloaded: true, summary: { source: 'model' } });
    // The summary request is in the turn log with the others.
    expect(record.model_calls.map((call: { purpose: string }) => call.purpose)).toEqual([
      'step',
      'summary',
      'step',
    ]);
    expect(record.model_calls[1]).toMatchObject({ tier: 'fast', servedBy: 'fast', modelId: 'local-model' });
    expect(record.model_calls[1].inputTokens).toBeGreaterThan(0);
  });

  it('tier = "middle": the middle tier writes the summary, the fast tier plans', async () => {
    const fast = await home.openai([
      { toolCalls: [{ name: 'fs_read', arguments: { path: 'service.log' } }] },
      (request) => {
        expect(isSummaryRequest(request)).toBe(false);
        return lastToolResult(request).includes('written by the middle tier')
          ? 'summarized'
          : 'not summarized';
      },
    ]);
    const middle = await home.openai([
      (request) => {
        expect(isSummaryRequest(request)).toBe(true);
        return 'A log, written by the middle tier.';
      },
    ]);
    const path = home.config(
      'middle',
      `[runtime.llm.fast]
provider = "openai"
model = "local-model"
base_url = "${fast.baseURL}"
api_key_env = "FAST_KEY"

[runtime.llm.middle]
provider = "openai"
model = "middle-model"
base_url = "${middle.baseURL}"
api_key_env = "FAST_KEY"

[runtime.summaries]
enabled = true
tier = "middle"
`,
    );
    const { record, code } = await run(path);
    expect(code).toBe(0);
    expect(record.final_message).toBe('summarized');
    expect(fast.remaining).toBe(0);
    expect(middle.remaining).toBe(0);
    expect(record.model_calls[1]).toMatchObject({
      purpose: 'summary',
      tier: 'middle',
      modelId: 'middle-model',
    });
  });

  it('off (the default, or enabled = false): no summary request, the salient preview', async () => {
    for (const [name, summaries] of [
      ['absent', ''],
      ['off', 'enabled = false\nmin_bytes = 0'],
    ]) {
      const seen: { observation?: string } = {};
      const server = await home.openai([
        { toolCalls: [{ name: 'fs_read', arguments: { path: 'service.log' } }] },
        (request) => {
          seen.observation = lastToolResult(request);
          return 'The billing export failed.';
        },
      ]);
      const { record, code } = await run(config(name as string, server, summaries as string));
      expect(code, name).toBe(0);
      expect(server.remaining, name).toBe(0);
      const requests = chatRequests(server.requests);
      expect(requests, name).toHaveLength(2);
      expect(requests.some(isSummaryRequest), name).toBe(false);
      expect(seen.observation, name).not.toContain('Summary (written by a model');
      expect(seen.observation, name).toContain('scratchpad_read');
      expect(record.steps[0].result.offloaded, name).toBe(true);
      expect(record.steps[0].result.summary, name).toBeUndefined();
    }
  });

  it('on, below min_bytes: the output keeps the salient preview and no summary is asked for', async () => {
    const server = await home.openai([
      { toolCalls: [{ name: 'fs_read', arguments: { path: 'service.log' } }] },
      'The billing export failed.',
    ]);
    const { record, code } = await run(config('small', server, 'enabled = true\nmin_bytes = 500_000'));
    expect(code).toBe(0);
    expect(chatRequests(server.requests).some(isSummaryRequest)).toBe(false);
    expect(record.steps[0].result.summary).toBeUndefined();
  });

  it('a bad value stops the run before any model request, naming the file and line', async () => {
    const server = await home.openai([]);
    const path = config('bad', server, 'enabled = true\ntier = "smart"');
    const result = await home.cli(['run', 'read service.log', '--config', path, '--quiet'], {
      FAST_KEY: 'test',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${path}:9: tier must be one of "fast", "middle", "wise"`);
    expect(chatRequests(server.requests)).toHaveLength(0);
  });
});
