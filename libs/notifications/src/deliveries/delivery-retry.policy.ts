import type { DeliveryAttemptView, DeliveryStatus } from '@longhaul/contracts';

/** How deliveries are retried (`DELIVERY_*`). */
export interface DeliveryRetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Delay before the second attempt; it doubles each time. */
  baseMs: number;
  /** The longest delay between two attempts. */
  capMs: number;
}

/**
 * The wait after failed attempt `attempt` (1-based): `base × 2^(attempt−1)` capped, with "equal
 * jitter" (half fixed, half random). Not full jitter: with delays of hours, a retry drawn
 * near zero would defeat the schedule a receiver's outage needs. A receiver's `Retry-After` is
 * honoured up to the cap when it asks for longer.
 */
export function retryDelayMs(attempt: number, policy: DeliveryRetryPolicy, retryAfterMs: number | null = null, random: () => number = Math.random): number {
  const exponential = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  const jittered = exponential / 2 + random() * (exponential / 2);
  return Math.round(Math.max(jittered, Math.min(retryAfterMs ?? 0, policy.capMs)));
}

/** What happens to a delivery after an attempt. */
export interface DeliveryDecision {
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
}

/** Delivered, retried later, or given up (a permanent answer, or out of attempts). */
export function decideAfterAttempt(
  attempt: DeliveryAttemptView,
  policy: DeliveryRetryPolicy,
  now: Date,
  retryAfterMs: number | null = null,
  random?: () => number,
): DeliveryDecision {
  if (attempt.outcome === 'delivered') return { status: 'delivered', nextAttemptAt: null };
  if (attempt.outcome === 'permanent' || attempt.attempt >= policy.maxAttempts) return { status: 'failed', nextAttemptAt: null };
  return { status: 'retrying', nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempt.attempt, policy, retryAfterMs, random)) };
}
