import { describe, expect, it } from 'vitest';
import { DEFAULT_PROVIDER_TIMEOUT_MS, startRequestDeadline } from './request-deadline.js';

describe('startRequestDeadline', () => {
  it('defaults to 120 s', () => {
    expect(DEFAULT_PROVIDER_TIMEOUT_MS).toBe(120_000);
    expect(startRequestDeadline(undefined, undefined).timeoutMs).toBe(120_000);
  });

  it('expires on its own time, and says so', async () => {
    const deadline = startRequestDeadline(10, undefined);
    await new Promise((resolve) => deadline.signal.addEventListener('abort', resolve));
    expect(deadline.expired()).toBe(true);
  });

  it('a caller abort is not an expiry', () => {
    const controller = new AbortController();
    const deadline = startRequestDeadline(60_000, controller.signal);
    controller.abort(new Error('stop'));
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.expired()).toBe(false);
  });
});
