import { z } from 'zod';

/** How a job type's failed steps are retried. Snapshotted on the job at submit. */
export const RetryPolicySchema = z.strictObject({
  /** Attempts in a series, the first included. @defaultValue 5 */
  maxAttempts: z.int().min(1).max(100),
  /** Backoff before the first retry (the ceiling of its jitter). @defaultValue 1000 */
  baseMs: z.int().min(0),
  /** Largest backoff. @defaultValue 60000 */
  capMs: z.int().min(0),
});
export type RetryPolicy = z.infer<typeof RetryPolicySchema>;

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, baseMs: 1000, capMs: 60_000 };

/**
 * Exponential backoff with full jitter: a uniform delay in [0, min(cap, base · 2^(failures−1))].
 * Full jitter spreads retries of jobs that failed together (a broker outage) instead of sending
 * them back in one wave.
 */
export function backoffDelayMs(policy: RetryPolicy, failures: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, failures - 1));
  return Math.floor(random() * ceiling);
}

/** What happens after a failed attempt. */
export type FailureDecision = { kind: 'retry'; delayMs: number } | { kind: 'fail' } | { kind: 'dead' };

/**
 * A non-retryable failure fails the job at once; a retryable one is retried until the series
 * has used `maxAttempts`, then the step is dead-lettered.
 */
export function decideAfterFailure(
  policy: RetryPolicy,
  failuresSoFar: number,
  retryable: boolean,
  random: () => number = Math.random,
): FailureDecision {
  if (!retryable) return { kind: 'fail' };
  const failures = failuresSoFar + 1;
  if (failures >= policy.maxAttempts) return { kind: 'dead' };
  return { kind: 'retry', delayMs: backoffDelayMs(policy, failures, random) };
}

/** Policies by job type, over a default. */
export function retryPolicyFor(type: string, byType: Record<string, RetryPolicy>, fallback: RetryPolicy): RetryPolicy {
  return byType[type] ?? fallback;
}
