import type { DeliveryAttemptView } from '@longhaul/contracts';
import { decideAfterAttempt, retryDelayMs } from './delivery-retry.policy';

const policy = { maxAttempts: 10, baseMs: 30_000, capMs: 7_200_000 };
const attempt = (n: number, outcome: DeliveryAttemptView['outcome']): DeliveryAttemptView => ({ attempt: n, at: '2026-11-29T12:00:00.000Z', durationMs: 5, outcome, statusCode: 500, error: null });

describe('retryDelayMs', () => {
  it('doubles from the base, half of it jittered, up to the cap', () => {
    expect(retryDelayMs(1, policy, null, () => 0)).toBe(15_000);
    expect(retryDelayMs(1, policy, null, () => 1)).toBe(30_000);
    expect(retryDelayMs(4, policy, null, () => 0)).toBe(120_000);
    expect(retryDelayMs(20, policy, null, () => 1)).toBe(7_200_000);
    expect(retryDelayMs(20, policy, null, () => 0)).toBe(3_600_000);
  });

  it('spans hours with the defaults: the nine waits of ten attempts add up to over two hours', () => {
    const total = Array.from({ length: 9 }, (_, i) => retryDelayMs(i + 1, policy, null, () => 0)).reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(2 * 3_600_000);
  });

  it("honours a longer Retry-After, up to the cap", () => {
    expect(retryDelayMs(1, policy, 600_000, () => 0)).toBe(600_000);
    expect(retryDelayMs(1, policy, 10 * 3_600_000, () => 0)).toBe(7_200_000);
    expect(retryDelayMs(1, policy, 1_000, () => 0)).toBe(15_000);
  });
});

describe('decideAfterAttempt', () => {
  const now = new Date('2026-11-29T12:00:00.000Z');

  it('delivers, retries, and gives up on a permanent answer or the last attempt', () => {
    expect(decideAfterAttempt(attempt(1, 'delivered'), policy, now)).toEqual({ status: 'delivered', nextAttemptAt: null });
    expect(decideAfterAttempt(attempt(1, 'permanent'), policy, now)).toEqual({ status: 'failed', nextAttemptAt: null });
    expect(decideAfterAttempt(attempt(10, 'retryable'), policy, now)).toEqual({ status: 'failed', nextAttemptAt: null });
    expect(decideAfterAttempt(attempt(2, 'retryable'), policy, now, null, () => 0)).toEqual({ status: 'retrying', nextAttemptAt: new Date(now.getTime() + 30_000) });
  });
});
