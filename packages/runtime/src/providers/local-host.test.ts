import { describe, expect, it } from 'vitest';
import { ScratchpadError } from 'llm-scratchpad';
import { createAnthropic } from './anthropic-model.js';
import { isLocalHost } from './local-host.js';
import { createOllama } from './ollama-model.js';
import { createOpenAICompatible } from './openai-compatible-model.js';

describe('isLocalHost', () => {
  it('counts loopback, private networks and .local names as local', () => {
    for (const url of [
      'http://127.0.0.1:8000/v1',
      'http://localhost:11434',
      'http://[::1]:8080',
      'http://10.1.2.3',
      'http://192.168.1.20:8000/v1',
      'http://172.20.0.5',
      'http://gpu-box.local:11434',
    ]) {
      expect(isLocalHost(url), url).toBe(true);
    }
  });

  it('counts public hosts and unparsable URLs as remote', () => {
    for (const url of [
      'https://api.openai.com/v1',
      'https://api.anthropic.com',
      'http://172.32.0.1',
      'http://8.8.8.8',
      'not a url',
    ]) {
      expect(isLocalHost(url), url).toBe(false);
    }
  });
});

describe('base URL validation', () => {
  it('rejects a base URL that is not http(s) with CONFIG_INVALID naming the variable', () => {
    const attempts: Array<[() => unknown, string]> = [
      [() => createOllama({ model: 'm', env: { OLLAMA_HOST: 'http://' } }), 'OLLAMA_HOST'],
      [() => createOpenAICompatible({ model: 'm', baseURL: 'ftp://files/v1', env: {} }), 'OPENAI_BASE_URL'],
      [
        () => createAnthropic({ model: 'm', baseURL: 'not a url', apiKey: 'k', env: {} }),
        'ANTHROPIC_BASE_URL',
      ],
    ];
    for (const [attempt, variable] of attempts) {
      let error: unknown;
      try {
        attempt();
      } catch (caught) {
        error = caught;
      }
      expect(ScratchpadError.hasCode(error, 'CONFIG_INVALID'), variable).toBe(true);
      expect((error as ScratchpadError).hint).toContain(variable);
    }
  });
});
