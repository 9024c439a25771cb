import { FEED_RECONNECT_MAX_MS, feedReconnectDelayMs, isRetryableStatus } from './feed-reconnect.policy.js';

describe('feedReconnectDelayMs', () => {
  it('starts at the server advice, else 1 s, and doubles up to 15 s', () => {
    expect([0, 1, 2, 3, 4, 5].map((n) => feedReconnectDelayMs(n, null))).toEqual([1000, 2000, 4000, 8000, 15_000, FEED_RECONNECT_MAX_MS]);
    expect(feedReconnectDelayMs(0, 3000)).toBe(3000);
    expect(feedReconnectDelayMs(1, 3000)).toBe(6000);
  });

  it('never asks again sooner than 250 ms, even when the server says 0', () => {
    expect(feedReconnectDelayMs(0, 0)).toBe(250);
  });
});

describe('isRetryableStatus', () => {
  it('retries a busy or restarting api, not a refusal', () => {
    expect([500, 502, 503, 429, 408].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404].some(isRetryableStatus)).toBe(false);
  });
});
