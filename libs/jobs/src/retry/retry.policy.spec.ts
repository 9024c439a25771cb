import { backoffDelayMs, decideAfterFailure, type RetryPolicy } from './retry.policy';

const policy: RetryPolicy = { maxAttempts: 5, baseMs: 100, capMs: 1000 };

describe('retry policy', () => {
  it('doubles the jitter ceiling per failure up to the cap', () => {
    const top = () => 0.999999;
    expect(backoffDelayMs(policy, 1, top)).toBe(99);
    expect(backoffDelayMs(policy, 2, top)).toBe(199);
    expect(backoffDelayMs(policy, 4, top)).toBe(799);
    expect(backoffDelayMs(policy, 9, top)).toBe(999);
  });

  it('draws the whole range from zero (full jitter)', () => {
    expect(backoffDelayMs(policy, 3, () => 0)).toBe(0);
  });

  it('fails at once on a non-retryable error', () => {
    expect(decideAfterFailure(policy, 0, false)).toEqual({ kind: 'fail' });
  });

  it('retries until the series has used its attempts, then dead-letters', () => {
    expect(decideAfterFailure(policy, 0, true, () => 0).kind).toBe('retry');
    expect(decideAfterFailure(policy, 3, true, () => 0).kind).toBe('retry');
    expect(decideAfterFailure(policy, 4, true, () => 0)).toEqual({ kind: 'dead' });
  });

  it('dead-letters after the only attempt when maxAttempts is 1', () => {
    expect(decideAfterFailure({ ...policy, maxAttempts: 1 }, 0, true)).toEqual({ kind: 'dead' });
  });
});
