import { ErrorCodes, LonghaulError } from '@longhaul/contracts';
import { LeaseLostError, OverBudgetError, RunCancelledError, ShutdownError } from './run-abort.reasons';
import type { WorkItemStatus } from './work-item';

/** What a runner does with a run that did not return a result. */
export type FailedRunOutcome =
  /** Shutdown: hand the item back to the queue. */
  | { kind: 'release' }
  /** Another runner holds the item: write nothing. */
  | { kind: 'lease-lost' }
  /** The job was cancelled: write nothing (the control consumer already marked the item). */
  | { kind: 'cancelled' }
  /** Over the lane's budget: finish as `demoted` and announce it. */
  | { kind: 'demote'; budgetMs: number; error: LonghaulError }
  /** A real failure: finish as `failed` and announce it. */
  | { kind: 'fail'; error: LonghaulError };

/** Normalises anything thrown by a step into a coded error (unknown errors are retryable). */
export function toLonghaulError(error: unknown): LonghaulError {
  if (error instanceof LonghaulError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new LonghaulError(ErrorCodes.stepFailed, message, true);
}

/**
 * Decides what a run that threw means. When the runner aborted the run, the abort reason wins
 * over whatever the step threw while stopping (typically an `AbortError` from a killed child):
 * the step did not fail, the runner stopped it.
 *
 * @param thrown what the step's promise rejected with
 * @param abortReason the run's `signal.reason` if it was aborted, else `undefined`
 */
export function outcomeOfFailedRun(thrown: unknown, abortReason: unknown): FailedRunOutcome {
  const reason = abortReason ?? thrown;
  if (reason instanceof ShutdownError) return { kind: 'release' };
  if (reason instanceof LeaseLostError) return { kind: 'lease-lost' };
  if (reason instanceof RunCancelledError) return { kind: 'cancelled' };
  if (reason instanceof OverBudgetError) return { kind: 'demote', budgetMs: reason.budgetMs, error: reason };
  return { kind: 'fail', error: toLonghaulError(reason) };
}

/** Whether a run may go on, after a heartbeat or a finish that did or did not match its row. */
export type LeaseVerdict = 'held' | 'cancelled' | 'lost';

/**
 * Reads a fenced write that matched nothing: the item's row says whether the job was cancelled
 * (status `cancelled`) or another runner took the item over (anything else, or no row).
 */
export function verdictOfMissedFence(status: WorkItemStatus | null): Exclude<LeaseVerdict, 'held'> {
  return status === 'cancelled' ? 'cancelled' : 'lost';
}

/**
 * How often a running item's lease is renewed: three renewals per lease, so one slow or failed
 * renewal does not lose it, and a cancel is noticed within a third of a lease. At least 250 ms,
 * so a short lease does not hammer the database.
 */
export function heartbeatIntervalMs(leaseMs: number): number {
  return Math.max(250, Math.floor(leaseMs / 3));
}
